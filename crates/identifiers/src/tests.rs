//! The extractor's unit tests: each rule with the messages it was made from.
use super::*;

fn ids(text: &str) -> Vec<String> {
    extract_identifiers(text)
}

fn check(text: &str, expected: &[&str]) {
    assert_eq!(ids(text), expected, "message: {text:?}");
}

#[test]
fn identifiers_says_verbs_open_with_the_letters_asked_first() {
    for (word, flags) in lexicon::lexicon().filter(|(_, f)| f & F_SAYS != 0) {
        assert!(word.starts_with(Scanner::SAYS_INITIALS), "{word} {flags}");
    }
}

#[test]
fn identifiers_listed_words_keep_their_flags() {
    // Short words are looked up by their bytes packed into one integer, through a cache of
    // recent words: every listed word, in any case, asked twice (the second time from the
    // cache), has its flags.
    let mut checked = 0;
    for (word, flag) in listed_words() {
        // ("ARALIK" is not "aralık" lowercased: case maps only ASCII both ways.)
        let upper = Some(word.to_ascii_uppercase()).filter(|_| word.is_ascii());
        for spelling in std::iter::once(word.to_string()).chain(upper) {
            for _ in 0..2 {
                assert_eq!(lookup(&spelling) & flag, flag, "{spelling}");
            }
        }
        checked += 1;
    }
    assert!(checked > 4_000, "{checked}");
    assert_eq!(lookup("zzzq"), 0);
    // A zero byte adds nothing to a short word's key: its length tells the two apart.
    assert_eq!(lookup("the\0"), 0);
    assert_ne!(lookup("the"), 0);
    assert_eq!(lookup("Rio_de_Janeiro") & F_NAME, F_NAME);
}

#[test]
fn identifiers_word_lists_are_sorted_and_lowercase() {
    let lexicon: Vec<(&str, u32)> = lexicon().collect();
    assert!(lexicon.len() > 1_500);
    for pair in lexicon.windows(2) {
        assert!(pair[0].0 < pair[1].0, "{:?} >= {:?}", pair[0].0, pair[1].0);
    }
    for line in include_str!("lexicon.txt").lines() {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let flags: Vec<&str> = line.split_whitespace().skip(1).collect();
        assert!(!flags.is_empty(), "{line:?}: no flags");
        for name in flags {
            assert_ne!(flag_named(name), 0, "{line:?}: unknown flag {name:?}");
        }
    }
    for (w, flags) in lexicon {
        assert_eq!(w.to_lowercase(), w);
        assert!(w.len() <= MAX_LOOKUP_BYTES && flags != 0);
        assert_eq!(
            lookup(w) & !(F_TLD | F_FILE_EXT | F_NAME | F_NAME_PREFIX | F_SHOP_PREFIX),
            flags
        );
    }
    for (mut list, flag) in word_lists() {
        if flag == F_NAME {
            // names.txt is grouped by kind, not sorted: only duplicates are mistakes.
            list.sort_unstable();
        }
        for pair in list.windows(2) {
            assert!(pair[0] < pair[1], "{:?} >= {:?}", pair[0], pair[1]);
        }
        for w in list {
            assert_eq!(w.to_lowercase(), w);
            assert!(w.len() <= MAX_LOOKUP_BYTES, "{w:?}");
            assert!(lookup(w) & flag != 0, "{w:?}");
            assert!(
                flag != F_NAME || w.contains(['_', '\'']) || may_be_name(w),
                "{w:?}"
            );
        }
    }
    assert_eq!(lookup("com"), F_TLD);
    assert_eq!(lookup("pdf"), F_ACRONYM_STOP | F_FILE_EXT);
    // "a" and "the" open listed titles too ("a_quiet_place", "the_last_of_us").
    assert_eq!(
        lookup("a") & !(F_NAME_PREFIX | F_SHOP_PREFIX),
        F_MID_DROP | F_OBJECT | F_STARTER
    );
    assert_eq!(lookup("zzz"), 0);
    assert_eq!(lookup("0"), 0);
    assert_eq!(
        lookup("The") & !(F_NAME_PREFIX | F_SHOP_PREFIX),
        F_CONNECTOR | F_OBJECT | F_STARTER
    );
    assert_eq!(lookup("Globex"), 0);
    assert_eq!(lookup("São"), F_NAME_PREFIX);
    assert_eq!(lookup_phrase("São Paulo"), F_NAME);
    assert_eq!(lookup("Lisbon"), F_NAME);
}

#[test]
fn identifiers_lines_whose_capitals_say_nothing() {
    check("PLEASE REMIND ME TO CALL THE DENTIST ON MONDAY", &[]);
    check("CALL JOHN AT IBM ABOUT THE NDA", &["JOHN", "IBM"]);
    check("Which Is Better For A Beginner, Running Or Swimming?", &[]);
    check("Can You Remind Me To Call Sarah On Monday", &["Sarah"]);
    check("LINEで中村さんから写真が届いた", &["LINE", "中村"]);
    check(
        "My Manager Wants The Report By Monday Morning, Any Tips?",
        &[],
    );
}

#[test]
fn identifiers_labels_and_keys() {
    // A listed name before a colon names someone, an unknown word labels.
    check(
        "Standup\n- Amara: finishing SEC-219\n- Piotr: on call",
        &["Amara", "SEC-219", "Piotr"],
    );
    check("Attendees: Priya", &["Priya"]);
    // A label that names a person: the word after it is someone.
    check("**Owner:** Farrukh\n**Due:** 12 June", &["Farrukh"]);
    check("Status: Blocked", &[]);
    // Keys of pasted config and code; a company's suffix is no ordinary abbreviation.
    check(
        "config:\n  sentry_dsn: https://a1@o4.ingest.sentry.io/5\n  output_dir: runs/",
        &["https://a1@o4.ingest.sentry.io/5"],
    );
    check(
        "order_id=ORD-558102 for user_8812",
        &["ORD-558102", "user_8812"],
    );
    check(
        "Need the W-9 from Acme Holdings LLC.",
        &["W-9", "Acme Holdings LLC"],
    );
}

#[test]
fn identifiers_possessives_of_people_shops_and_saints() {
    // A word that only opens sentences owns nothing after a place's preposition only.
    check("it's Ola's turn to host", &["Ola"]);
    check("Nkechi's order arrived", &["Nkechi"]);
    check("met him at Nkechi's on the way", &["Nkechi's"]);
    // What a saint owns, before a lowercase word too.
    check(
        "Ask Rev. Mensah if St. Anne's hall is free",
        &["Mensah", "St. Anne's"],
    );
    // An owner ending in s, its apostrophe alone.
    check("he's at St Thomas' Hospital", &["St Thomas' Hospital"]);
    check("James' car is red, we met Chris' Mum", &["James", "Chris"]);
    // An opener left in the run does not hide a shop's owner.
    check("Is McKinley's Hardware open?", &["McKinley's Hardware"]);
    check("Our Nando's voucher expired", &["Nando's"]);
    // A lowercase shop's 's after a place's preposition, before nothing it owns.
    check("the good bread from gail's to my list", &["gail's"]);
    check("surgery is at addenbrooke's on the 9th", &["addenbrooke's"]);
    check("meet at zaina's place", &["zaina"]);
}

#[test]
fn identifiers_lowercase_works_people_and_places() {
    // A work's title after "watching", "playing" runs on over plain words.
    check(
        "rewatching gilmore girls with my gran lol",
        &["gilmore girls"],
    );
    check(
        "playing elden ring all weekend, dont judge",
        &["elden ring"],
    );
    check("we're watching squid game s2 tonight", &["squid game"]);
    check("watching bridgerton w mia tonite", &["bridgerton", "mia"]);
    // Two listed names in a row are one; places of several words; the e-reader.
    check(
        "bought tickets for olivia rodrigo at wembley",
        &["olivia rodrigo", "wembley"],
    );
    check("ask priya and tom", &["priya", "tom"]);
    check(
        "heading to the lake district w the lads",
        &["lake district"],
    );
    check("plan a trip to chiang mai w/ nalin", &["chiang mai"]);
    check(
        "my kindle died, bought a kindle paperwhite",
        &["kindle", "kindle paperwhite"],
    );
    // What something is, an unknown word: a name; not what is said of it.
    check(
        "can u remember my gym is puregym on holloway rd",
        &["puregym", "holloway rd"],
    );
    check("check if the flight is refundable, my jack is busted", &[]);
}

#[test]
fn identifiers_names_by_verb_role_and_list() {
    // A says-verb opening a sentence is a verb; a vendor or a customer before a company is
    // its role; a job title after an article names no one.
    check("Asked Tariq to get tickets", &["Tariq"]);
    check(
        "Kunde Brandt & Söhne KG meldet einen Fehler",
        &["Brandt & Söhne KG"],
    );
    check("Vendor Acme Ltd sent new bank details", &["Acme Ltd"]);
    check("The Head of Finance asked for the summary", &[]);
    // A listed name with "and" in it, past an opener too.
    check(
        "moved to Trinidad and Tobago in the 70s",
        &["Trinidad and Tobago"],
    );
    check(
        "Is Bosnia and Herzegovina in the EU?",
        &["Bosnia and Herzegovina", "EU"],
    );
    check("London and Paris", &["London", "Paris"]);
    // A word the filter takes for English before "and" and a name is a name too.
    check("Olu and Temi are coming for dinner", &["Olu", "Temi"]);
    check("Sales and Marketing met", &[]);
    check("Jun said yes, due Jun 12", &["Jun"]);
}

#[test]
fn identifiers_words_of_chat_work_and_german() {
    // German possessives and "kein" are articles: the noun after one is no name.
    check("Wie spät ist es in deiner Zeitzone?", &[]);
    check("Ich treffe meine Schwester Annika", &["Annika"]);
    check("keine Ahnung wo Jonas ist", &["Jonas"]);
    // German everyday nouns; where someone is from may be such a noun.
    check(
        "erst zu Rossmann, dann zur Apotheke und ins Kino",
        &["Rossmann"],
    );
    check("Herr Yılmaz von der Hausverwaltung kommt", &["Yılmaz"]);
    check("Der Build ist seit heute Morgen rot", &[]);
    // Chat's interjections open sentences.
    check("Lol yes exactly", &[]);
    check("Tbh not sure. Haha ok", &[]);
    // Chat's and work's words the common sizes of SCOWL leave out.
    check("Kickoff moved. Repro steps below", &[]);
    check("pls remember i'm allergic to penicillin and cashews", &[]);
    // Ordinary abbreviations and what logs report.
    check("Do we need a DPA before the SFTP drop? CORS too", &[]);
    check("kubectl logs shows OOMKilled, then ConnectTimeout", &[]);
    check("Error: ENOENT: no such file", &[]);
}

#[test]
fn identifiers_widely_used_names_without_case() {
    // Districts, landmarks, chains and apps.
    check(
        "明日、渋谷のスターバックスで打ち合わせ",
        &["渋谷", "スターバックス"],
    );
    check("我想去故宫，然后去宜家", &["故宫", "宜家"]);
    check(
        "이번 주말에 제주도 가는데 대한항공 예약",
        &["제주도", "대한항공"],
    );
    check("موعدي مع سارة في دبي مول يوم الخميس", &["سارة", "دبي مول"]);
    check("พรุ่งนี้ไปสยามพารากอนกับสมชาย", &["สยามพารากอน", "สมชาย"]);
}

#[test]
fn identifiers_names_that_own() {
    check("We met at Lloyd's of London", &["Lloyd's of London"]);
    check(
        "Maria's of the opinion that Bob is right",
        &["Maria", "Bob"],
    );
    check(
        "the kids' school is St Brigid's Primary",
        &["St Brigid's Primary"],
    );
    check("Maria's Primary school", &["Maria", "Primary"]);
    check(
        "Frau Schneider im Café Einstein",
        &["Schneider", "Café Einstein"],
    );
    check("we drove to Frankfurt am Main", &["Frankfurt am Main"]);
    check(
        "Checking whether McKinley's Hardware is open",
        &["McKinley's Hardware"],
    );
    check("notes from the visit to Mayo Clinic", &["Mayo Clinic"]);
    check("A Joana Santos de Itaú pediu", &["Joana Santos", "Itaú"]);
}

#[test]
fn identifiers_titles_opened_by_an_article_a_question_or_a_preposition() {
    check("Diary of a Wimpy Kid", &["Diary of a Wimpy Kid"]);
    check("A Man Called Ove made me cry", &["A Man Called Ove"]);
    check(
        "books like Where the Crawdads Sing",
        &["Where the Crawdads Sing"],
    );
    check(
        "I'm reading Of Mice and Men with Rob",
        &["Of Mice and Men", "Rob"],
    );
    check("he said To Kill a Mockingbird", &["To Kill a Mockingbird"]);
    check(
        "finished reading Klara and the Sun, so sad",
        &["Klara and the Sun"],
    );
}

#[test]
fn identifiers_people_and_works_typed_or_said() {
    check(
        "Chioma said the best jollof is at Ofada Kitchen",
        &["Chioma", "Ofada Kitchen"],
    );
    check(
        "hamid and i finally watched oppenheimer. 3 hours!!",
        &["hamid", "oppenheimer"],
    );
    check("ok so me and tomás are hitting lidl", &["tomás", "lidl"]);
}

#[test]
fn identifiers_headings_departments_occasions_and_slots() {
    check("## Weekly Review\n- shipped it", &[]);
    check("Mirela is joining the Data Platform team", &["Mirela"]);
    check("3. AOB and the FY forecast", &[]);
    check("Happy Birthday Sarah! and Happy New Year", &["Sarah"]);
    check(
        "Sprint 41 retro: Windows 11 broke, meet at Gate 3",
        &["Windows 11"],
    );
}

#[test]
fn identifiers_account_numbers_in_two_groups() {
    check("transfer to account 7193 0248 today", &["7193 0248"]);
    check("account no. 3318 2290", &["3318 2290"]);
    check("order 4471 arrived with 300 items", &["4471"]);
}

#[test]
fn identifiers_titles_of_two_nouns() {
    check(
        "Book club picked Pride and Prejudice for March.",
        &["Pride and Prejudice"],
    );
    check(
        "Have I read Crime and Punishment yet?",
        &["Crime and Punishment"],
    );
    check(
        "I met Anna and Ben at Google and Microsoft",
        &["Anna", "Ben", "Google", "Microsoft"],
    );
}

#[test]
fn identifiers_names_without_capitals_or_case() {
    // Listed names typed in lowercase; words that are also names stay words.
    check(
        "ask priya if the invoice came, flight to lisbon",
        &["priya", "lisbon"],
    );
    check("tell will the grace period ends", &[]);
    check(
        "los angeles office, then new york",
        &["los angeles", "new york"],
    );
    check("new ideas for rio", &[]);
    check(
        "grab milk from trader joe's, then sam's club; ask sam's mom",
        &["trader joe's", "sam's club", "sam"],
    );
    // Chinese: a family name and a given name between particles; listed places.
    check("我下周和张伟去杭州出差", &["张伟", "杭州"]);
    check("我的同事赵敏明天从成都飞回北京", &["赵敏", "成都", "北京"]);
    check("候选人毕业于清华大学", &["清华大学"]);
    // Japanese: a title marks a name, a listed name needs none; no name inside a name.
    check("田中さんと京都で会う", &["田中", "京都"]);
    check(
        "山田太郎さんは大阪のソニーで",
        &["山田太郎", "大阪", "ソニー"],
    );
    // Korean, Arabic, Hebrew, Devanagari, Thai.
    check("박지현이 서울에 왔어요", &["박지현", "서울"]);
    check(
        "참석: 박서준, 이하나 (네이버). 봉준호 감독 최고",
        &["박서준", "이하나", "네이버", "봉준호"],
    );
    check("محمد العلي سيزور مكتب دبي", &["محمد العلي", "دبي"]);
    check("דוד כהן מתל אביב", &["דוד כהן", "תל אביב"]);
    check("यिश הופעה תל אביב", &["תל אביב"]);
    check("प्रिया शर्मा ने मुंबई से फोन किया", &["प्रिया शर्मा", "मुंबई"]);
    check("ไปเชียงใหม่กับคุณสมชาย", &["เชียงใหม่", "สมชาย"]);
    // Among Latin words, a run of words of another script is one name; Chinese clauses
    // around a Latin term are not.
    check(
        "Remind me that דוד כהן from Tel Aviv sent it",
        &["דוד כהן", "Tel Aviv"],
    );
    check("张伟说他那边的 CUDA 版本是 12.1", &["张伟", "CUDA"]);
}

#[test]
fn identifiers_unlisted_names_in_lowercase_messages() {
    // After a preposition or a word that introduces someone, a word that is not English.
    check(
        "dinner at dishoom in covent garden, then drinks with funmi",
        &["dishoom", "covent garden", "funmi"],
    );
    check(
        "buy a card for aunty funmi and post it to ibadan",
        &["funmi", "ibadan"],
    );
    // English words, plurals and verbs after "to" stay words.
    check(
        "remind me to mow the lawn, pick up jake from soccer, vat on deposits",
        &["jake"],
    );
    // A writer who capitalises writes names capitalised: a lowercase word is a word.
    check("Dinner at zorbaz tonight", &[]);
    check("so I said dinner at zorbaz", &[]);
    // After a relation of someone's; a place noun closes a name over ordinary words.
    check(
        "my flatmate wojtek ate it, the dog walker is here, dentist appt moved",
        &["wojtek"],
    );
    check(
        "the pediatrician is dr amira haddad at riverside family clinic",
        &["amira haddad", "riverside family clinic"],
    );
    check("ask dr. okafor about it", &["okafor"]);
    // An unknown word that says or owns something; not after an article or "st.".
    check(
        "kasia recommended it and dani's bday is soon",
        &["kasia", "dani"],
    );
    check("the fridge note says hi, st. mary's is closed", &[]);
}

#[test]
fn identifiers_roles_greetings_and_korean_endings() {
    check(
        "Customer Nordvik Fisk AS reported it. Product Hunt loved it.",
        &["Nordvik Fisk AS", "Product Hunt"],
    );
    check(
        "Beste Joost,\n\nDank je.\n\nGroet,\nFemke",
        &["Joost", "Femke"],
    );
    check("예약번호가 KE7Q2X야", &["KE7Q2X"]);
    check(
        "| Mei-Ling Cho | Growth |\nTermin bei Herrn Dr. Yilmaz wegen des Kredits",
        &["Mei-Ling Cho", "Yilmaz"],
    );
    check("Dr. Anjali Menon (Cardiology) called", &["Anjali Menon"]);
    check(
        "NASA's open data is here. That playlist was Marisol's, not mine! Meet at Wendy's?",
        &["NASA", "Marisol", "Wendy's"],
    );
    check(
        "Everything Everywhere All at Once is on",
        &["Everything Everywhere All at Once"],
    );
    check(
        "Meet at Olusegun's place. O João Pereira da Embraer ligou.",
        &["Olusegun", "João Pereira", "Embraer"],
    );
    check(
        "cita en el Hospital Clínic de Barcelona a las 9, luego a Santa Cruz de Tenerife",
        &["Hospital Clínic de Barcelona", "Santa Cruz de Tenerife"],
    );
    check(
        "April is flying in from Cebu. May and I are going. May is going to be busy.",
        &["April", "Cebu", "May"],
    );
    check(
        "Reading list:\n- One Hundred Years of Solitude\n- Call Me by Your Name\n",
        &["One Hundred Years of Solitude", "Call Me by Your Name"],
    );
    check(
        "Factuur 2024-0451 en FV/2024/0391; git clone git@github.com:acme/api.git; \
         api.corvid.health; HTTP/2 401 in 2023-2024",
        &[
            "2024-0451",
            "FV/2024/0391",
            "git@github.com:acme/api.git",
            "api.corvid.health",
        ],
    );
    check(
        "save arXiv:2310.06825 and doi:10.1145/3442188, PMID:31452104",
        &["arXiv:2310.06825", "doi:10.1145/3442188", "PMID:31452104"],
    );
    check(
        "andiamo a Reggio nell'Emilia, poi la Galleria dell'Accademia",
        &["Reggio nell'Emilia", "Galleria dell'Accademia"],
    );
    check(
        "Just watched Everything Everywhere All at Once, no regrets",
        &["Everything Everywhere All at Once"],
    );
}

#[test]
fn identifiers_titles_opening_sentences() {
    check(
        "Call Me by Your Name soundtrack is on repeat",
        &["Call Me by Your Name"],
    );
    check("Of Mice and Men is on the list", &["Of Mice and Men"]);
    check(
        "In the Mood for Love is showing at BFI Southbank",
        &["In the Mood for Love", "BFI Southbank"],
    );
    check(
        "Bring Me the Horizon are playing",
        &["Bring Me the Horizon"],
    );
    // A verb, an auxiliary or a possessive before the title is not in it.
    check(
        "Reading Pride and Prejudice for book club",
        &["Pride and Prejudice"],
    );
    check(
        "Did University of Michigan reply?",
        &["University of Michigan"],
    );
    check("My Bank of America card got declined", &["Bank of America"]);
    // People, German nouns, names after "and", and headings are no titles.
    check(
        "Faith Hill and Tim McGraw are touring",
        &["Faith Hill", "Tim McGraw"],
    );
    check("Der Server hängt seit heute", &[]);
    check(
        "Live Nation and Ticketmaster settled",
        &["Live Nation", "Ticketmaster"],
    );
    check("Quick Update on the launch", &[]);
}

#[test]
fn identifiers_job_titles_and_departments_name_no_one() {
    check(
        "Maya Goldberg joined as Head of Customer Success; ping Legal and the Platform team",
        &["Maya Goldberg"],
    );
    check("General Motors hired a Staff Engineer", &["General Motors"]);
}

#[test]
fn identifiers_titles_of_ordinary_words() {
    check(
        "I finished Gone with the Wind, put Here Comes the Sun on, Bill Murray in Lost in Translation",
        &["Gone with the Wind", "Here Comes the Sun", "Bill Murray", "Lost in Translation"],
    );
    check(
        "reading The Hobbit in London with Sue and Dr. Nguyễn Thị Mai at Smile Bright Dental",
        &[
            "The Hobbit",
            "London",
            "Sue",
            "Nguyễn Thị Mai",
            "Smile Bright Dental",
        ],
    );
}

#[test]
fn identifiers_services_and_repositories_in_lowercase() {
    check(
        "the ci-deployer role and the search-indexer deployment, repo acme/checkout-web",
        &["ci-deployer", "search-indexer", "acme/checkout-web"],
    );
    check(
        "follow-up on the well-known check-in, cherry-picked rendez-vous, and/or 24/7",
        &[],
    );
}

#[test]
fn identifiers_common_words_opening_sentences() {
    check(
        "Amount stays at $210k. Lower churn first. Notion crashed. Sky called.",
        &["Notion", "Sky"],
    );
}

#[test]
fn identifiers_telephones_are_no_ids() {
    check(
        "her number is 087 123 4567, Phone: +234 803 555 0142; IBAN DE89 3704 0044 0532 0130 00",
        &["DE89 3704 0044 0532 0130 00"],
    );
}

#[test]
fn identifiers_list_items_of_common_words() {
    check("Bread\nEggs\n- Milk\n1. Butter\nCall Spotify", &["Spotify"]);
}

#[test]
fn identifiers_flights_apart_from_airlines() {
    check(
        "Aer Lingus EI154, then my Volvo XC90",
        &["Aer Lingus", "EI154", "Volvo XC90"],
    );
}

#[test]
fn identifiers_listed_names_own_what_follows() {
    check(
        "Kevin's copy is at Sam's Club; send it to Priya's email, not Costco's",
        &["Kevin", "Sam's Club", "Priya", "Costco"],
    );
}

#[test]
fn identifiers_networks_log_lines_tests_and_romanised_names() {
    check(
        "allow 10.42.0.0/16 and 2001:db8:4f2a::/48 but not 10.42.7.19",
        &["10.42.0.0/16", "2001:db8:4f2a::/48", "10.42.7.19"],
    );
    check(
        "[2024-02-01 13:45:12] ERROR Failed to load config\nFAILED tests/test_sync.py::test_retry",
        &["tests/test_sync.py::test_retry"],
    );
    check(
        "Reviewers: Sun-hee Park, Hsu Wei-ting, Eun-ji. Hip-hop and Pop-up night",
        &["Sun-hee Park", "Hsu Wei-ting", "Eun-ji"],
    );
}

#[test]
fn identifiers_english_filter_holds_every_listed_word() {
    let words: Vec<&str> = lexicon::lines(include_str!("english.txt"))
        .flat_map(str::split_whitespace)
        .collect();
    assert!(words.len() > 9_000);
    assert!(words.iter().all(|w| is_english_word(w)));
    // Names pass for words rarely (about 1 in 25 by the filter's size).
    let [.., (names, _)] = word_lists();
    let names: Vec<&str> = names
        .into_iter()
        .filter(|w| w.bytes().all(|b| b.is_ascii_lowercase()) && w.len() >= 3)
        .collect();
    let passing = names.iter().filter(|w| is_english_word(w)).count();
    assert!(
        passing * 10 < names.len(),
        "{passing} of {} names pass",
        names.len()
    );
}

#[test]
fn identifiers_names_with_particles_and_connectors() {
    check(
        "Can you pull up my statement from Bank of America?",
        &["Bank of America"],
    );
    check(
        "Goldman Sachs hired McKinsey & Company last year.",
        &["Goldman Sachs", "McKinsey & Company"],
    );
    check(
        "We flew from Rio de Janeiro to São Paulo.",
        &["Rio de Janeiro", "São Paulo"],
    );
    check(
        "Did Ludwig van Beethoven write that?",
        &["Ludwig van Beethoven"],
    );
    check(
        "She studied at the University of the Arts London.",
        &["University of the Arts London"],
    );
    check("Is Barnes & Noble open late?", &["Barnes & Noble"]);
    // A particle after a full name, or after a surname behind an honorific, is "from".
    check(
        "Responde a Lucía Fernández de Telefónica y a Ana Maria de Souza.",
        &["Lucía Fernández", "Telefónica", "Ana Maria de Souza"],
    );
    check(
        "een gesprek met Sanne de Vries van Coolblue in Den Haag",
        &["Sanne de Vries", "Coolblue", "Den Haag"],
    );
    check(
        "Herr Müller von Bosch kommt. Las compré en El Corte Inglés de Valencia.",
        &["Müller", "Bosch", "El Corte Inglés", "Valencia"],
    );
    check(
        "chez M. Garnier; M. Lefèvre de la BNP; M. Night Shyamalan",
        &["Garnier", "Lefèvre", "BNP", "M. Night Shyamalan"],
    );
    check(
        "Estudia en la Universidad Nacional de Colombia",
        &["Universidad Nacional de Colombia"],
    );
}

#[test]
fn identifiers_lists_are_split_on_and() {
    check("Compare Stripe and Adyen fees.", &["Stripe", "Adyen"]);
    check(
        "Invite Priya, Tom and Lena to the Lisbon offsite.",
        &["Priya", "Tom", "Lena", "Lisbon"],
    );
}

#[test]
fn identifiers_camel_case_and_acronyms() {
    check(
        "Sync my iPhone contacts with GitHub and YouTube.",
        &["iPhone", "GitHub", "YouTube"],
    );
    check("Does OpenAI have an office near the UN?", &["OpenAI", "UN"]);
    // An NDA is a kind of document, HSBC one bank (issue 13).
    check("Send the NDA to HSBC asap.", &["HSBC"]);
    check("FYI the CEO of Globex called.", &["Globex"]);
}

#[test]
fn identifiers_diacritics() {
    check("Zürich or Genève for the offsite?", &["Zürich", "Genève"]);
    check("Remind me to call François Dupré.", &["François Dupré"]);
    // Decomposed accents (NFD) stay inside the word.
    check(
        "Lunch with Jose\u{301} in Malaga.",
        &["Jose\u{301}", "Malaga"],
    );
}

#[test]
fn identifiers_codes_and_numbers() {
    check(
        "Ticket JIRA-4512 blocks PROJ-77.",
        &["JIRA-4512", "PROJ-77"],
    );
    check("Where is order #4821?", &["#4821"]);
    check(
        "Confirmation code 9XK2LM for the Hilton.",
        &["9XK2LM", "Hilton"],
    );
    check("Booking ref QX7P2M, seat 14C.", &["QX7P2M"]);
    check(
        "Wire $1,200 to account 4417-2290 by Friday.",
        &["4417-2290"],
    );
    check("The invoice 20417 is overdue.", &["20417"]);
    check("I paid 120 dollars at 3pm on 2024-05-01.", &[]);
    check("It took 10-15 minutes, in Q3 of FY2024.", &[]);
    check(
        "Link ent_01HZX3 to 550e8400-e29b-41d4-a716-446655440000.",
        &["ent_01HZX3", "550e8400-e29b-41d4-a716-446655440000"],
    );
}

#[test]
fn identifiers_emails_urls_domains_ips_handles() {
    check(
        "Email bob.smith+news@globex.co.uk and cc @priya_k.",
        &["bob.smith+news@globex.co.uk", "@priya_k"],
    );
    check(
        "See (https://example.com/a_(b)) and www.acme.io/pricing.",
        &["https://example.com/a_(b)", "www.acme.io/pricing"],
    );
    check(
        "The server 10.0.0.12 hosts intranet.acme.com.",
        &["10.0.0.12", "intranet.acme.com"],
    );
    check("Open notes/2024/plan.md please", &["notes/2024/plan.md"]);
    check(
        "Ping 2001:db8::1 and fe80::1, not std::fmt or 10:30.",
        &["2001:db8::1", "fe80::1"],
    );
    check("e.g. the pricing, i.e. 3.5 per seat", &[]);
}

#[test]
fn identifiers_quotes() {
    check(
        "Find the doc called \"Q3 Roadmap\" please.",
        &["Q3 Roadmap"],
    );
    check(
        "What's in ‘holiday plans’ and «Projet Soleil»?",
        &["holiday plans", "Projet Soleil"],
    );
    check(
        "Maria's notes on 'the move' aren't done, that's fine.",
        &["Maria", "the move"],
    );
    check("Set `max_retries` to 5.", &["max_retries"]);
    check("Please find \"quote here and 'another one", &[]);
    check("The kids' toys and Sam's bike", &["Sam"]);
}

#[test]
fn identifiers_honorifics_and_possessives() {
    check("Did Dr. Ana Müller reply?", &["Ana Müller"]);
    check("Prof. Smith's lecture moved.", &["Smith"]);
    check("Ask Mrs Patel about the Jones' house.", &["Patel", "Jones"]);
    check("John F. Kennedy airport", &["John F. Kennedy"]);
    check("Meet at St. Pancras tomorrow.", &["St. Pancras"]);
}

#[test]
fn identifiers_sentence_starters_and_stop_words() {
    check(
        "Hi! Thanks. Please tell me what I said on Monday in March.",
        &[],
    );
    check("Hey, Can you check something?", &[]);
    check("Globex called. Maria answered.", &["Globex", "Maria"]);
    check("Meeting moved. Lunch is at noon.", &[]);
    check("Hi Sarah, can you ping Tom?", &["Sarah", "Tom"]);
    check("Good morning! Any news from Acme?", &["Acme"]);
    check("OK so the NASA thing is done.", &["NASA"]);
    check(
        "- Buy milk\n- Call Priya\n1. Email Globex",
        &["Priya", "Globex"],
    );
    check("Note: Globex renewed.", &["Globex"]);
    check(
        "Renegotiate the Globex contract. Escalate INV-77 to Priya.",
        &["Globex", "INV-77", "Priya"],
    );
}

#[test]
fn identifiers_fast_char_classes_agree_with_std() {
    for c in (0..=0x10_ffff).filter_map(char::from_u32) {
        if is_cjk_letter(c) {
            assert!(
                c.is_alphabetic() && !c.is_uppercase() && !c.is_lowercase(),
                "{c:?}"
            );
        }
        assert_eq!(is_space(c), c.is_whitespace(), "{c:?}");
        if c.is_ascii() {
            let token = c.is_ascii_alphanumeric() || ".:-_'@#/&+=%$*~^\\".contains(c);
            assert_eq!(is_ascii_token_byte(c as u8), token, "{c:?}");
        }
    }
    assert!(!is_ascii_token_byte(0x80) && !is_ascii_token_byte(0xff));
}

#[test]
fn identifiers_hand_decoding_agrees_with_std() {
    let text = "aé東😀e\u{301}b’s Йs\u{3000}x";
    let scanner = Scanner::new(text);
    for p in 0..=text.len() + 1 {
        let ch = text.get(p..).and_then(|t| t.chars().next());
        assert_eq!(scanner.ch(p), ch.map(|c| (c, c.len_utf8())), "at {p}");
        let prev = text.get(..p).and_then(|t| t.chars().next_back());
        assert_eq!(scanner.prev(p), prev, "at {p}");
    }
}

#[test]
fn identifiers_chat_markup_labels_and_verb_forms() {
    check("**Venue:** Lisbon\nTimeline: tight", &["Lisbon"]);
    check("Lessons learned: ask Omar earlier.", &["Omar"]);
    check("Reviewing the draft from Halvorsen.", &["Halvorsen"]);
    check("Emailed Priya. Beijing is next.", &["Priya", "Beijing"]);
    check("Ahmed called.", &["Ahmed"]);
    check("| Owner | Ines |", &["Ines"]);
    check("The MOU and the RFP went to UNICEF.", &["UNICEF"]);
    check("P.S. The Globex deck is done.", &["Globex"]);
}

#[test]
fn identifiers_paths_branches_services_and_list_items() {
    // A directory keeps its trailing slash; relative Windows paths; a drive folder whose
    // name holds a space.
    check("copy the photos to /srv/media/ tonight", &["/srv/media/"]);
    check("run ..\\tools\\build.bat first", &["..\\tools\\build.bat"]);
    check(
        "Install it in D:\\Game Files\\Steam\\steam.exe, then ping nas.lan.",
        &["D:\\Game Files\\Steam\\steam.exe", "nas.lan"],
    );
    check("Open C:\\Temp and wait", &["C:\\Temp"]);
    // Git branches by their conventional kind; services by the kind of program.
    check(
        "git switch bugfix/null-deref before lunch",
        &["bugfix/null-deref"],
    );
    check("tag release/4.1 tonight", &["release/4.1"]);
    check(
        "restart orders-worker, not the co-worker",
        &["orders-worker"],
    );
    check("a well-known follow-up", &[]);
    // A task-list checkbox opens its item; weekdays in the plural.
    check("- [x] Email Dana the draft\n- [ ] Reduce costs", &["Dana"]);
    check("Heathrow closes on Mondays.", &["Heathrow"]);
    check("Sunny Patel paid. Sunny day today", &["Sunny Patel"]);
    // An Indic virama or nukta is part of its word, not a break inside it: the two words
    // between Latin words are one name.
    check("Met अमित शर्मा in Delhi", &["अमित शर्मा", "Delhi"]);
}

#[test]
fn identifiers_possessives_titles_and_particles() {
    check("Dinner at Nando's or Wagamama?", &["Nando's", "Wagamama"]);
    check("Lunch at Nando's with Priya's team", &["Nando's", "Priya"]);
    check("Meet at Luigi's Pizza", &["Luigi's Pizza"]);
    check("Priya's Berlin trip", &["Priya", "Berlin"]);
    check("Coffee at Dunkin' first", &["Dunkin'"]);
    check(
        "Watch The Return of the King in Leeds",
        &["The Return of the King", "Leeds"],
    );
    check(
        "Visit Bourg-en-Bresse and Den Haag",
        &["Bourg-en-Bresse", "Den Haag"],
    );
    check(
        "May Chen and June Park joined in May.",
        &["May Chen", "June Park"],
    );
    check("Is it on Apple TV+ or Disney+?", &["Apple TV+", "Disney+"]);
    check(
        "Hope Lange's script. Will Priya join?",
        &["Hope Lange", "Priya"],
    );
    check("FWIW the COI came.", &[]);
}

#[test]
fn identifiers_given_names_that_are_words_and_shop_possessives() {
    check("Mark Ellison called back", &["Mark Ellison"]);
    check("Will Sarah join?", &["Sarah"]);
    check("Will, the cab is here", &["Will"]);
    check("Hope said hi to Zed", &["Hope", "Zed"]);
    check("Hope you are well", &[]);
    check("Did you read May's notes?", &["May"]);
    check("Bring a Wendy's burger", &["Wendy's"]);
    check("Maria's birthday is soon", &["Maria"]);
    check("shop\tFred's\t12.00", &["Fred's"]);
}

#[test]
fn identifiers_words_of_other_languages_and_titles_after_names() {
    // Openers, weekdays and honorifics looked up in any script.
    check("Кто в пятницу дежурит? Иван Петров", &["Иван Петров"]);
    check("Ο Νίκος από τη Θεσσαλονίκη", &["Νίκος", "Θεσσαλονίκη"]);
    check("Mañana tengo cita con la Dra. Gómez", &["Gómez"]);
    check(
        "Ich habe am Montag einen Termin bei Frau Becker",
        &["Becker"],
    );
    check("Mehmet Bey, Turkcell sözleşmesi", &["Mehmet", "Turkcell"]);
    check("Tanaka-san asked for the forecast", &["Tanaka"]);
    // A title after a name in text without spaces or case.
    check("来週の金曜日に田中さんと会う", &["田中"]);
    check("김민준 팀장님한테 회의록 보내줘", &["김민준"]);
    check("박지은 선생님이 알림장에", &["박지은"]);
    check("王女士明天来", &["王"]);
    check("คุณวิภา ส่งใบแจ้งหนี้", &["วิภา"]);
    check("राहुल जी, कॉल 4 बजे है", &["राहुल"]);
    check("موعد مع الدكتور أحمد منصور في دبي", &["أحمد منصور", "دبي"]);
    check("يا أحمد، هل أرسلت العقد", &["أحمد"]);
    // A Turkish case ending after an apostrophe is not part of the name.
    check(
        "Yarın Ayşe ile İstanbul'a, Koton'dan bir elbise",
        &["Ayşe", "İstanbul", "Koton"],
    );
    check("I'd ask O'Brien, ma'am", &["O'Brien"]);
    // A sentence in another language opens with a word, not a name, unless a title is
    // before it.
    check("Compré las zapatillas en Zara", &["Zara"]);
    check("Ciao! Il dott. Rossi ha confermato per giovedì", &["Rossi"]);
    // A word before its position is read by chars, never split inside one.
    check("déjà vu: ask May if Réunion à May", &["May", "Réunion"]);
}

#[test]
fn identifiers_given_names_months_and_titles() {
    check(
        "Will is OOO until Monday, so ask May if it works",
        &["Will", "May"],
    );
    check("April said the party starts at 7", &["April"]);
    check("Hi Art, the CFO approved it.", &["Art"]);
    check("Did Mark get the slides?", &[]);
    check("Summer camp forms are due", &[]);
    check("June is booked solid", &[]);
    check("See you in May. Due May 5.", &[]);
    check(
        "Harry Potter and the Philosopher's Stone, with Anna and the kids",
        &["Harry Potter and the Philosopher's Stone", "Anna"],
    );
    check("Sam and the Acme team", &["Sam", "Acme"]);
    check(
        "The Lord of the Rings or A Tale of Two Cities? The Bank of America rep asked.",
        &[
            "The Lord of the Rings",
            "A Tale of Two Cities",
            "Bank of America",
        ],
    );
    check(
        "Ben & Jerry's Half Baked, and Mike Chen's car",
        &["Ben & Jerry's", "Half Baked", "Mike Chen"],
    );
    check(
        "Boston Children's Hospital",
        &["Boston Children's Hospital"],
    );
}

#[test]
fn identifiers_markdown_logs_and_emoji() {
    check(
        "| Vendor | Hosts |\n|---|---|\n| Datadog | 120 |\n| Bill | 3 |",
        &["Datadog", "Bill"],
    );
    check("## Characters\n- Elizabeth Bennet", &["Elizabeth Bennet"]);
    check(
        "WARN host=pay-gw-03.eu.acme.internal order=ORD-88213 attempt=3",
        &["pay-gw-03.eu.acme.internal", "ORD-88213"],
    );
    check(":rotating_light: paged @lena :+1:", &["@lena"]);
    check(
        "retrying upload to s3://acme-ml/ckpt/step_12000 (attempt 3)",
        &["s3://acme-ml/ckpt/step_12000"],
    );
    check(
        "sprint:\n- Rose: data loader\n- Will: eval harness\n- Owner: me",
        &["Rose", "Will"],
    );
    check(
        "a NASA-themed cake from a Berlin-based bakery",
        &["NASA", "Berlin"],
    );
    check(
        "bump ghcr.io/acme/worker:2.14.1, digest sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08, role arn:aws:iam::4815:role/Audit",
        &[
            "ghcr.io/acme/worker:2.14.1",
            "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
            "arn:aws:iam::4815:role/Audit",
        ],
    );
    check(
        "Expenses: Trader Joe's $84.20, Kevin's lunch",
        &["Trader Joe's", "Kevin"],
    );
    check(
        "Musée d'Orsay, then Kinkaku-ji and a Follow-up",
        &["Musée d'Orsay", "Kinkaku-ji"],
    );
    check("Die Zahlung ist da, sagt Frau Becker", &["Becker"]);
    check(
        "thanks to the Vector Institute and the University of Toronto",
        &["Vector Institute", "University of Toronto"],
    );
}

#[test]
fn identifiers_paths_addresses_and_grouped_numbers() {
    // CSV cells, JSON keys, a folder's trailing backslash, a department.
    check("db-07,10.1.2.3\n", &["db-07", "10.1.2.3"]);
    check("paid 1,250,000 to ACC-12", &["ACC-12"]);
    check("{\"owner\": \"Ravi Das\"}", &["Ravi Das"]);
    check("Is D:\\Music\\Live\\ gone?", &["D:\\Music\\Live\\"]);
    check("Ask IT and HR about Zorbix", &["Zorbix"]);
    check(
        "See C:\\Temp\\a.txt and \\\\nas\\docs",
        &["C:\\Temp\\a.txt", "\\\\nas\\docs"],
    );
    check("Run ../bin/sync.sh", &["../bin/sync.sh"]);
    check("at main (/srv/app.js:3:9)", &["/srv/app.js"]);
    check("Ping ::1 and 64:ff9b::1", &["::1", "64:ff9b::1"]);
    check(
        "IBAN GB82 WEST 1234 5698 7654 32 ok",
        &["GB82 WEST 1234 5698 7654 32"],
    );
    check(
        "card 4111 1111 1111 1111, years 2021 2022 2023",
        &["4111 1111 1111 1111"],
    );
    check(
        "ssh root@10.1.2.3 then git checkout fix/OPS-12",
        &["root@10.1.2.3", "fix/OPS-12"],
    );
    check("2024-05-01T10:00:00Z INFO console.log(x) Retry(3)", &[]);
    check(
        "Call 佐藤さん in 大阪 about 김지은",
        &["佐藤", "大阪", "김지은"],
    );
    check("明天和王小明开会", &[]);
    check("ありがとう Tom", &["Tom"]);
}

#[test]
fn identifiers_names_with_numbers() {
    check("Is Artemis II delayed?", &["Artemis II"]);
    check("My iPhone 15 Pro is broken.", &["iPhone 15 Pro"]);
    check("We met Sarah 3 times.", &["Sarah"]);
    check("Acme Corp 2023 results", &["Acme Corp"]);
    check("Ticket 4512 is open", &["4512"]);
}

#[test]
fn identifiers_dedupe_case_insensitively() {
    check("Acme Corp, acme corp and ACME CORP.", &["Acme Corp"]);
    check("Berlin and \"Berlin\"", &["Berlin"]);
}

#[test]
fn identifiers_edge_inputs_do_not_panic() {
    for text in [
        // A label of non-ASCII letters before a word the English filter knows.
        "Président: Rose",
        "Ölçüm: Blocked",
        "",
        " ",
        "'",
        "\"",
        "“",
        "`",
        "```",
        "@",
        "#",
        "&",
        "-",
        "'s",
        "’s",
        "...",
        "é",
        "\u{301}",
        "a'",
        "'a",
        "@.",
        "#-",
        "x@",
        "@x@y",
        "1.2.3.4.5",
        "a-",
        "-a",
        "ÅÄÖ",
        "İstanbul",
        "ǅemal",
        "🎉 Party at Globex 🎉",
        "日本語のテキスト Tokyo",
        "\u{0}\u{1}",
        "a\u{2029}B",
        "http://",
        "www.",
        "https://(((",
        "ent_",
        "_",
        "__init__",
        "a/b/c",
        "/",
        "~/",
        "10:30",
        "::",
        "C++ and C#",
        "'''''",
        "\"\"\"\"",
        "‘’‘’",
        "«»",
        "O'",
        "O'B",
        "Mc",
        "& Co",
        "of Bank",
        "Bank of",
        "#Ω",
        "@é",
        "İİİ'S",
        "ß-ẞ",
        "x'ẞ's",
    ] {
        let out = ids(text);
        assert!(out.len() <= MAX_IDENTIFIERS);
    }
}

#[test]
fn identifiers_cut_to_the_cap_are_trimmed() {
    // Found by tests/prop_identifiers.rs: the 200-char cut fell on the space in a name.
    let text = format!("A{}Aaaa NASA", "b".repeat(194));
    let id = &ids(&text)[0];
    assert_eq!(id.as_str(), &text[..199]);
}

#[test]
fn identifiers_output_is_capped() {
    let text: String = (0..500).map(|i| format!("INV-{i:05} ")).collect();
    assert_eq!(ids(&text).len(), MAX_IDENTIFIERS);
    let long = format!(
        "\"{}\" https://example.com/{}",
        "y".repeat(150),
        "z".repeat(500)
    );
    for id in ids(&long) {
        assert!(id.chars().count() <= MAX_IDENTIFIER_CHARS);
    }
}

#[test]
fn identifiers_particles_by_language_and_titles_by_their_first_word() {
    // Portuguese "do" joins a name; Polish "do" is "to".
    check("Summer plans: Foz do Iguaçu for a week", &["Foz do Iguaçu"]);
    check(
        "Vou visitar a minha avó em Viana do Castelo no fim de semana",
        &["Viana do Castelo"],
    );
    check("Jutro jadę z Kasią do Zakopanego", &["Kasią", "Zakopanego"]);
    // A German place by its river or hill; a person where she is.
    check(
        "Shipping from Mülheim an der Ruhr to Newcastle",
        &["Mülheim an der Ruhr", "Newcastle"],
    );
    check(
        "Bad Homburg vor der Höhe or Kronberg?",
        &["Bad Homburg vor der Höhe", "Kronberg"],
    );
    // Indonesian "di" is "at"; Italian "di" joins a place's name.
    check("Besok aku ketemu Budi di Bandung", &["Budi", "Bandung"]);
    check(
        "Siamo a Castellammare di Stabia domani",
        &["Castellammare di Stabia"],
    );
    // A capital article or contraction inside a sentence opens a title.
    check("or A Farewell to Arms, which one?", &["A Farewell to Arms"]);
    check(
        "exit song is Don't Stop Me Now by Queen",
        &["Don't Stop Me Now", "Queen"],
    );
    check(
        "first dance is Can't Help Falling in Love, then",
        &["Can't Help Falling in Love"],
    );
    check("Don't forget the milk", &[]);
    // "at the" says where a work is seen.
    check(
        "we watched Past Lives at the Odeon",
        &["Past Lives", "Odeon"],
    );
    check("Saw Past Lives yesterday", &["Past Lives"]);
    // A title's subtitle after its colon; a label's colon ends it.
    check(
        "did i log The Legend of Zelda: Tears of the Kingdom as done?",
        &["The Legend of Zelda: Tears of the Kingdom"],
    );
    check(
        "Remind me to watch Pirates of the Caribbean: At World's End with Dawn",
        &["Pirates of the Caribbean: At World's End", "Dawn"],
    );
    check("Head of Sales: Priya Shah", &["Priya Shah"]);
    check(
        "Notes from the Bank of America: John called",
        &["Bank of America", "John"],
    );
}

#[test]
fn identifiers_action_owners_and_plain_named_places() {
    check("Action: Grace to set up a design freeze", &["Grace"]);
    check("- [ ] Bill to email Deloitte", &["Bill", "Deloitte"]);
    check("Hope to see you there", &[]);
    check(
        "i need a dentist, mine is at smile studio in town",
        &["smile studio"],
    );
    check(
        "the electrician from bright spark electrical quoted 450",
        &["bright spark electrical"],
    );
    check("meet me at the studio", &[]);
}

#[test]
fn identifiers_status_codes_plurals_roots_bookings_and_speech() {
    // English words after an HTTP status code are its phrase; an address keeps its words.
    check("npm ERR! 404 Not Found - GET", &[]);
    check("we live at 221 Baker Street now", &["221 Baker Street"]);
    // A sentence's first word that is the plural of a word.
    check("Minutes — vendor review", &[]);
    check("Vendors to evaluate: CrowdStrike", &["CrowdStrike"]);
    // A listed lowercase name runs on to a place's noun.
    check("clinic is on leeds road", &["leeds road"]);
    // One root segment is a path; a tone tag is not.
    check("health check hits /healthz every 10s", &["/healthz"]);
    check("that was mean /srs", &[]);
    // A booking's number in dotted groups; thousands are not one.
    check("Buchungsnummer 4129.553.087 ok", &["4129.553.087"]);
    check("paid 1.234.567 euros", &[]);
    // A Russian sentence's first word before a verb of speech.
    check("Наташа посоветовала книгу", &["Наташа"]);
    check("Напомни мне завтра", &[]);
}

#[test]
fn identifiers_lowercase_brands_and_names_that_are_words() {
    check("pick up my prescription from boots before 6", &["boots"]);
    check(
        "my flight to atlanta on delta got cancelled",
        &["atlanta", "delta"],
    );
    check("we're on target for q3", &[]);
    check("grace said the dinner was too loud lol", &["grace"]);
    check("jack's allergist said to try it", &["jack"]);
    check("the fridge says hi", &[]);
    // Listed names in lowercase, a work's title with its article among them.
    check("we finally finished breaking bad", &["breaking bad"]);
    check(
        "idk if i should watch the last of us next",
        &["the last of us"],
    );
}

/// The fast paths of `Scanner::scan` (a word of letters; a token with nothing to strip such as
/// "Joe's"; one stripped byte and letters such as "'a"; letters and a period; a word of CJK
/// letters) decide as `Scanner::token` does: every labelled fixture's texts, one at a time and
/// run together, and repetitions of the token shapes each path takes give the same identifiers
/// both ways.
#[test]
fn identifiers_fast_paths_decide_as_the_general_path() {
    let general = |text: &str| {
        let mut scanner = Scanner::new(text);
        scanner.general_path_only = true;
        scanner.scan();
        scanner.out
    };
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures");
    let mut texts: Vec<String> = std::fs::read_dir(dir)
        .expect("tests/fixtures")
        .map(|e| e.expect("entry").path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("identifiers-"))
        })
        .flat_map(|p| {
            let data = std::fs::read_to_string(&p).expect("fixture");
            let rows: Vec<String> = data
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| {
                    let row: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
                    row["text"].as_str().expect("text").to_string()
                })
                .collect();
            rows
        })
        .collect();
    assert!(texts.len() > 5_000, "{} fixture texts", texts.len());
    let together = [texts.join("\n"), texts.join(" ")];
    texts.extend(together);
    let shapes = [
        "Joe's ",
        "'a ",
        "Milk. ",
        "東京 ",
        "张伟和李娜去北京上海深圳，",
        "dinner at zorbaz with funmi ",
        "Mr. Smith's e-mail v2.4.1 don't *bold* -v _x_ 'Quoted' St. Paul's, ",
        "findUser( _init( Retry.( os.path.join( ",
        "Acme *Corp met Zoe -Ann and Tom _Lee at Bank .Of ",
        "ŁÓDŹ Zoë's 東京タワー 김민준 씨랑 ",
    ];
    texts.extend(shapes.iter().map(|s| s.repeat(300)));
    for text in &texts {
        assert_eq!(
            ids(text),
            general(text),
            "the fast paths and `token` differ on: {}",
            text.chars().take(200).collect::<String>()
        );
    }
}
