//! The extractor's word lists (lexicon, top-level domains, file extensions) and their lookup.
//!
//! The readable lists below are merged at compile time into one front-coded table: the words
//! in sorted order, each stored as the length it shares with the word before, the rest of the
//! word, and a terminator byte naming its set of flags. That is a third smaller than words
//! grouped by length with a flags array beside them, and gzips better (shared prefixes and
//! flag runs are spelled once). Every [`BLOCK`]th word is stored whole, so a lookup is a
//! binary search over those words plus a scan of at most one block: constant time.

use super::MAX_LOOKUP_BYTES;

/// Opens sentences as an ordinary word (verbs, pronouns, greetings): dropped there.
pub(super) const F_STARTER: u16 = 1 << 0;
/// A common noun or adjective: not a name on its own at the start of a sentence.
pub(super) const F_COMMON: u16 = 1 << 1;
/// A function word: never a name, wherever it is capitalised.
pub(super) const F_MID_DROP: u16 = 1 << 2;
/// Never a name on its own ("Mom", "Internet", "Thai").
pub(super) const F_ALWAYS_DROP: u16 = 1 << 3;
/// A weekday, month or holiday: not an identifier.
pub(super) const F_TIME: u16 = 1 << 4;
/// A generic acronym ("FYI", "CEO", "PDF"): not an identifier.
pub(super) const F_ACRONYM_STOP: u16 = 1 << 5;
/// A title before a name ("Dr", "Mrs"): not part of the name.
pub(super) const F_HONORIFIC: u16 = 1 << 6;
/// An abbreviation whose period does not end the sentence ("St. Pancras").
pub(super) const F_ABBREV_JOIN: u16 = 1 << 7;
/// Joins name words ("Bank of America", "Rio de Janeiro").
pub(super) const F_CONNECTOR: u16 = 1 << 8;
/// A number right after this word is a record id ("order 48213").
pub(super) const F_ID_CUE: u16 = 1 << 9;
/// Follows an imperative verb ("Wire the money").
pub(super) const F_OBJECT: u16 = 1 << 10;
/// A number right before this word is a count ("3 times"), not part of a name.
pub(super) const F_UNIT: u16 = 1 << 11;
/// A company or name suffix that keeps its period ("Acme Inc.").
pub(super) const F_SUFFIX_DOT: u16 = 1 << 12;
/// Ends a street name, which a house number may precede ("42 Elm Street").
pub(super) const F_STREET: u16 = 1 << 13;

/// Lowercase words and what they are.
#[rustfmt::skip]
pub(super) const LEXICON: &[(&str, u16)] = &[
    ("a", F_MID_DROP | F_OBJECT | F_STARTER), ("about", F_STARTER), ("above", F_STARTER),
    ("absolutely", F_STARTER), ("accept", F_STARTER), ("according", F_STARTER),
    ("account", F_COMMON | F_ID_CUE), ("accountant", F_COMMON), ("accounts", F_COMMON),
    ("acct", F_ID_CUE), ("actually", F_STARTER), ("add", F_STARTER), ("added", F_STARTER),
    ("address", F_COMMON), ("adjust", F_STARTER), ("advance", F_STARTER), ("afaik", F_ACRONYM_STOP),
    ("african", F_ALWAYS_DROP), ("after", F_STARTER), ("afternoon", F_STARTER),
    ("afterwards", F_STARTER), ("again", F_STARTER), ("against", F_STARTER), ("agenda", F_COMMON),
    ("ago", F_UNIT), ("agree", F_STARTER), ("ah", F_STARTER), ("ahh", F_STARTER),
    ("ai", F_ACRONYM_STOP), ("airport", F_COMMON), ("aka", F_ACRONYM_STOP), ("alarm", F_COMMON),
    ("album", F_COMMON), ("alert", F_STARTER), ("all", F_OBJECT | F_STARTER), ("allergy", F_COMMON),
    ("alley", F_STREET), ("allow", F_STARTER), ("almost", F_STARTER), ("already", F_STARTER),
    ("alright", F_STARTER), ("also", F_MID_DROP | F_STARTER), ("although", F_STARTER),
    ("always", F_STARTER), ("am", F_ACRONYM_STOP | F_STARTER | F_UNIT), ("ama", F_ACRONYM_STOP),
    ("american", F_ALWAYS_DROP), ("among", F_STARTER), ("an", F_MID_DROP | F_OBJECT | F_STARTER),
    ("analyse", F_STARTER), ("analyze", F_STARTER), ("and", F_MID_DROP | F_STARTER),
    ("anniversary", F_COMMON), ("annual", F_COMMON), ("another", F_STARTER),
    ("answer", F_COMMON | F_STARTER), ("any", F_STARTER), ("anybody", F_STARTER),
    ("anyone", F_STARTER), ("anything", F_STARTER), ("anyway", F_STARTER), ("anyways", F_STARTER),
    ("apartment", F_COMMON), ("api", F_ACRONYM_STOP), ("apis", F_ACRONYM_STOP),
    ("apologize", F_STARTER), ("app", F_COMMON), ("apparently", F_STARTER), ("append", F_STARTER),
    ("apply", F_STARTER), ("appointment", F_COMMON), ("approve", F_STARTER), ("apr", F_TIME),
    ("april", F_TIME), ("arab", F_ALWAYS_DROP), ("arabic", F_ALWAYS_DROP), ("archive", F_STARTER),
    ("are", F_MID_DROP | F_STARTER), ("argentinian", F_ALWAYS_DROP), ("around", F_STARTER),
    ("arrange", F_STARTER), ("article", F_COMMON), ("as", F_STARTER), ("asap", F_ACRONYM_STOP),
    ("asian", F_ALWAYS_DROP), ("ask", F_STARTER), ("assess", F_STARTER), ("assign", F_STARTER),
    ("assignment", F_COMMON), ("assist", F_STARTER), ("assistant", F_COMMON),
    ("associate", F_STARTER), ("assume", F_STARTER), ("at", F_MID_DROP | F_STARTER),
    ("atm", F_ACRONYM_STOP), ("attach", F_STARTER), ("attend", F_STARTER), ("aud", F_ACRONYM_STOP),
    ("audit", F_STARTER), ("aug", F_TIME), ("august", F_TIME), ("aunt", F_COMMON),
    ("australian", F_ALWAYS_DROP), ("austrian", F_ALWAYS_DROP), ("ave", F_STREET),
    ("avenue", F_STREET), ("average", F_STARTER), ("avoid", F_STARTER), ("aw", F_STARTER),
    ("awesome", F_STARTER), ("b&b", F_ACRONYM_STOP), ("baby", F_COMMON),
    ("back", F_OBJECT | F_STARTER), ("backup", F_COMMON), ("bake", F_STARTER),
    ("balance", F_COMMON), ("bank", F_COMMON), ("based", F_STARTER), ("basically", F_STARTER),
    ("bbq", F_ACRONYM_STOP), ("bcc", F_ACRONYM_STOP), ("bday", F_COMMON), ("be", F_STARTER),
    ("because", F_STARTER), ("been", F_STARTER), ("beer", F_COMMON), ("before", F_STARTER),
    ("begin", F_STARTER), ("being", F_STARTER), ("belgian", F_ALWAYS_DROP), ("below", F_STARTER),
    ("besides", F_STARTER), ("best", F_STARTER), ("better", F_STARTER), ("between", F_STARTER),
    ("big", F_COMMON), ("bike", F_COMMON), ("bill", F_COMMON), ("bills", F_COMMON),
    ("bin", F_CONNECTOR), ("birthday", F_COMMON), ("block", F_STARTER), ("blog", F_COMMON),
    ("blvd", F_STREET), ("bmi", F_ACRONYM_STOP), ("board", F_COMMON), ("bonus", F_COMMON),
    ("book", F_COMMON | F_STARTER), ("booking", F_COMMON | F_ID_CUE), ("bookings", F_COMMON),
    ("books", F_COMMON), ("borrow", F_STARTER), ("boss", F_COMMON), ("both", F_OBJECT | F_STARTER),
    ("boulevard", F_STREET), ("boyfriend", F_COMMON), ("brainstorm", F_STARTER),
    ("brazilian", F_ALWAYS_DROP), ("brb", F_ACRONYM_STOP), ("breakfast", F_COMMON),
    ("brilliant", F_STARTER), ("bring", F_STARTER), ("british", F_ALWAYS_DROP),
    ("bros", F_SUFFIX_DOT), ("brother", F_COMMON), ("browse", F_STARTER), ("brunch", F_COMMON),
    ("bst", F_ACRONYM_STOP), ("btw", F_ACRONYM_STOP | F_STARTER), ("bucks", F_UNIT),
    ("buddhist", F_ALWAYS_DROP), ("budget", F_COMMON), ("bug", F_COMMON), ("bugs", F_COMMON),
    ("build", F_COMMON | F_STARTER), ("bump", F_STARTER), ("bus", F_COMMON), ("business", F_COMMON),
    ("busy", F_COMMON), ("but", F_MID_DROP | F_STARTER), ("buy", F_STARTER), ("by", F_STARTER),
    ("bye", F_STARTER), ("cad", F_ACRONYM_STOP), ("cake", F_COMMON), ("calculate", F_STARTER),
    ("calendar", F_COMMON), ("call", F_COMMON | F_STARTER), ("calls", F_COMMON | F_UNIT),
    ("can", F_STARTER), ("canadian", F_ALWAYS_DROP), ("cancel", F_STARTER), ("candidate", F_COMMON),
    ("cannot", F_STARTER), ("cant", F_STARTER), ("cantonese", F_ALWAYS_DROP), ("capt", F_HONORIFIC),
    ("capture", F_STARTER), ("car", F_COMMON), ("card", F_COMMON), ("cart", F_COMMON),
    ("case", F_ID_CUE), ("cat", F_COMMON), ("categorize", F_STARTER), ("catholic", F_ALWAYS_DROP),
    ("cc", F_ACRONYM_STOP), ("cd", F_ACRONYM_STOP), ("celebrate", F_STARTER),
    ("ceo", F_ACRONYM_STOP), ("certainly", F_STARTER), ("cest", F_ACRONYM_STOP),
    ("cet", F_ACRONYM_STOP), ("cfo", F_ACRONYM_STOP), ("change", F_STARTER), ("charge", F_STARTER),
    ("chat", F_COMMON), ("check", F_STARTER), ("checkout", F_COMMON), ("checkup", F_COMMON),
    ("cheers", F_STARTER), ("chf", F_ACRONYM_STOP), ("child", F_COMMON), ("children", F_COMMON),
    ("chilean", F_ALWAYS_DROP), ("chinese", F_ALWAYS_DROP), ("choose", F_STARTER),
    ("chores", F_COMMON), ("christian", F_ALWAYS_DROP), ("christmas", F_TIME), ("circle", F_STREET),
    ("city", F_COMMON), ("claim", F_COMMON | F_ID_CUE), ("clarify", F_STARTER), ("class", F_COMMON),
    ("classify", F_STARTER), ("clean", F_STARTER), ("cleaning", F_COMMON), ("clear", F_STARTER),
    ("client", F_COMMON), ("clients", F_COMMON), ("clone", F_STARTER), ("close", F_STARTER),
    ("cluster", F_STARTER), ("cmo", F_ACRONYM_STOP), ("co", F_SUFFIX_DOT), ("coach", F_COMMON),
    ("code", F_COMMON), ("codes", F_COMMON), ("coffee", F_COMMON), ("col", F_HONORIFIC),
    ("colleague", F_COMMON), ("collect", F_STARTER), ("college", F_COMMON),
    ("colombian", F_ALWAYS_DROP), ("come", F_STARTER), ("commit", F_STARTER), ("commute", F_COMMON),
    ("company", F_COMMON), ("compare", F_STARTER), ("complete", F_STARTER), ("compose", F_STARTER),
    ("compute", F_STARTER), ("concert", F_COMMON), ("conference", F_COMMON),
    ("configure", F_STARTER), ("confirm", F_STARTER), ("confirmation", F_COMMON | F_ID_CUE),
    ("congrats", F_STARTER), ("congratulate", F_STARTER), ("congratulations", F_STARTER),
    ("connect", F_STARTER), ("consider", F_STARTER), ("contact", F_COMMON | F_STARTER),
    ("contacts", F_COMMON), ("continue", F_STARTER), ("contract", F_COMMON),
    ("contractor", F_COMMON), ("contrast", F_STARTER), ("convert", F_STARTER),
    ("coo", F_ACRONYM_STOP), ("cook", F_STARTER), ("cool", F_STARTER), ("coordinate", F_STARTER),
    ("copy", F_STARTER), ("corp", F_SUFFIX_DOT), ("correct", F_STARTER), ("cost", F_COMMON),
    ("costs", F_COMMON), ("could", F_STARTER), ("couldnt", F_STARTER), ("count", F_STARTER),
    ("country", F_COMMON), ("coupon", F_COMMON), ("course", F_COMMON), ("court", F_STREET),
    ("cousin", F_COMMON), ("covid", F_ACRONYM_STOP), ("cpu", F_ACRONYM_STOP), ("create", F_STARTER),
    ("crescent", F_STREET), ("crm", F_ACRONYM_STOP), ("cst", F_ACRONYM_STOP),
    ("csv", F_ACRONYM_STOP), ("ct", F_STREET), ("cto", F_ACRONYM_STOP), ("cuban", F_ALWAYS_DROP),
    ("current", F_COMMON), ("currently", F_STARTER), ("customer", F_COMMON | F_ID_CUE),
    ("customers", F_COMMON), ("da", F_CONNECTOR), ("dad", F_ALWAYS_DROP | F_COMMON),
    ("daddy", F_ALWAYS_DROP | F_COMMON), ("daily", F_COMMON), ("dame", F_HONORIFIC),
    ("danish", F_ALWAYS_DROP), ("das", F_CONNECTOR), ("data", F_COMMON), ("database", F_COMMON),
    ("daughter", F_COMMON), ("day", F_COMMON | F_UNIT), ("days", F_UNIT), ("de", F_CONNECTOR),
    ("deadline", F_COMMON), ("deal", F_COMMON), ("dear", F_MID_DROP | F_STARTER), ("dec", F_TIME),
    ("december", F_TIME), ("decide", F_STARTER), ("deck", F_COMMON), ("decline", F_STARTER),
    ("dedupe", F_STARTER), ("deduplicate", F_STARTER), ("defer", F_STARTER), ("define", F_STARTER),
    ("definitely", F_STARTER), ("del", F_CONNECTOR), ("delay", F_STARTER), ("delegate", F_STARTER),
    ("delete", F_STARTER), ("deliver", F_STARTER), ("delivery", F_COMMON), ("della", F_CONNECTOR),
    ("demand", F_STARTER), ("den", F_CONNECTOR), ("dentist", F_COMMON), ("deny", F_STARTER),
    ("deploy", F_COMMON), ("deployment", F_COMMON), ("deposit", F_COMMON), ("der", F_CONNECTOR),
    ("des", F_CONNECTOR), ("describe", F_STARTER), ("dessert", F_COMMON), ("detach", F_STARTER),
    ("di", F_CONNECTOR), ("dial", F_STARTER), ("dictate", F_STARTER), ("did", F_STARTER),
    ("didnt", F_STARTER), ("different", F_COMMON), ("dig", F_STARTER), ("dinner", F_COMMON),
    ("disable", F_STARTER), ("disagree", F_STARTER), ("discount", F_COMMON), ("display", F_STARTER),
    ("divide", F_STARTER), ("diy", F_ACRONYM_STOP), ("dm", F_ACRONYM_STOP), ("dms", F_ACRONYM_STOP),
    ("dna", F_ACRONYM_STOP), ("dns", F_ACRONYM_STOP), ("do", F_STARTER), ("dob", F_ACRONYM_STOP),
    ("doc", F_COMMON), ("docs", F_COMMON), ("doctor", F_COMMON), ("document", F_COMMON),
    ("documents", F_COMMON), ("does", F_STARTER), ("doesnt", F_STARTER), ("dog", F_COMMON),
    ("dollar", F_UNIT), ("dollars", F_UNIT), ("donate", F_STARTER), ("done", F_STARTER),
    ("dont", F_STARTER), ("dos", F_CONNECTOR), ("double", F_STARTER), ("downgrade", F_STARTER),
    ("download", F_STARTER), ("dr", F_HONORIFIC), ("draft", F_COMMON | F_STARTER),
    ("draw", F_STARTER), ("drinks", F_COMMON), ("drive", F_STARTER | F_STREET), ("drop", F_STARTER),
    ("du", F_CONNECTOR), ("during", F_STARTER), ("dutch", F_ALWAYS_DROP), ("dvd", F_ACRONYM_STOP),
    ("e-mail", F_ALWAYS_DROP), ("each", F_OBJECT | F_STARTER), ("earlier", F_STARTER),
    ("early", F_COMMON), ("easter", F_TIME), ("eastern", F_ALWAYS_DROP), ("ecg", F_ACRONYM_STOP),
    ("edit", F_STARTER), ("edt", F_ACRONYM_STOP), ("egyptian", F_ALWAYS_DROP),
    ("ein", F_ACRONYM_STOP), ("either", F_STARTER), ("ekg", F_ACRONYM_STOP),
    ("elaborate", F_STARTER), ("electrician", F_COMMON), ("electricity", F_COMMON),
    ("eli5", F_ACRONYM_STOP), ("else", F_STARTER), ("email", F_STARTER),
    ("emails", F_COMMON | F_UNIT), ("employee", F_ID_CUE), ("enable", F_STARTER),
    ("english", F_ALWAYS_DROP), ("enjoy", F_STARTER), ("enter", F_STARTER), ("eod", F_ACRONYM_STOP),
    ("eom", F_ACRONYM_STOP), ("eow", F_ACRONYM_STOP), ("episode", F_COMMON), ("er", F_ACRONYM_STOP),
    ("erase", F_STARTER), ("erp", F_ACRONYM_STOP), ("errands", F_COMMON), ("error", F_COMMON),
    ("errors", F_COMMON), ("escalate", F_STARTER), ("especially", F_STARTER), ("essay", F_COMMON),
    ("est", F_ACRONYM_STOP), ("estimate", F_STARTER), ("eta", F_ACRONYM_STOP),
    ("eur", F_ACRONYM_STOP | F_UNIT), ("euro", F_UNIT), ("european", F_ALWAYS_DROP),
    ("euros", F_UNIT), ("ev", F_ACRONYM_STOP), ("evaluate", F_STARTER), ("even", F_STARTER),
    ("evening", F_STARTER), ("event", F_COMMON), ("events", F_COMMON), ("eventually", F_STARTER),
    ("ever", F_STARTER), ("every", F_OBJECT | F_STARTER), ("everybody", F_STARTER),
    ("everyone", F_COMMON | F_STARTER), ("everything", F_STARTER), ("evp", F_ACRONYM_STOP),
    ("exam", F_COMMON), ("excellent", F_STARTER), ("except", F_STARTER), ("exchange", F_STARTER),
    ("exclude", F_STARTER), ("expand", F_STARTER), ("expense", F_COMMON), ("expenses", F_COMMON),
    ("explain", F_STARTER), ("explore", F_STARTER), ("export", F_STARTER), ("extend", F_STARTER),
    ("family", F_COMMON), ("faq", F_ACRONYM_STOP), ("father", F_COMMON), ("feature", F_COMMON),
    ("features", F_COMMON), ("feb", F_TIME), ("february", F_TIME), ("fee", F_COMMON),
    ("feed", F_STARTER), ("feedback", F_COMMON), ("fees", F_COMMON), ("festival", F_COMMON),
    ("fetch", F_STARTER), ("few", F_STARTER), ("fiance", F_COMMON), ("figure", F_STARTER),
    ("file", F_COMMON), ("files", F_COMMON), ("filipino", F_ALWAYS_DROP), ("fill", F_STARTER),
    ("filter", F_STARTER), ("final", F_COMMON), ("finally", F_STARTER), ("find", F_STARTER),
    ("fine", F_STARTER), ("finish", F_STARTER), ("finished", F_COMMON), ("finnish", F_ALWAYS_DROP),
    ("first", F_STARTER), ("fix", F_COMMON | F_STARTER), ("flag", F_STARTER), ("flight", F_COMMON),
    ("flights", F_COMMON), ("fly", F_STARTER), ("folder", F_COMMON), ("folks", F_COMMON),
    ("follow", F_STARTER), ("following", F_STARTER), ("fomo", F_ACRONYM_STOP), ("food", F_COMMON),
    ("for", F_MID_DROP | F_STARTER), ("forecast", F_STARTER), ("forget", F_STARTER),
    ("fork", F_STARTER), ("format", F_STARTER), ("forward", F_STARTER), ("found", F_STARTER),
    ("fr", F_HONORIFIC), ("frau", F_HONORIFIC), ("free", F_COMMON), ("french", F_ALWAYS_DROP),
    ("fri", F_TIME), ("friday", F_TIME), ("friend", F_COMMON), ("friends", F_COMMON),
    ("from", F_STARTER), ("ft", F_ABBREV_JOIN), ("fuel", F_COMMON), ("full", F_COMMON),
    ("funeral", F_COMMON), ("further", F_STARTER), ("fw", F_ACRONYM_STOP), ("fwd", F_ACRONYM_STOP),
    ("fyi", F_ACRONYM_STOP), ("g", F_UNIT), ("game", F_COMMON), ("games", F_COMMON),
    ("garage", F_COMMON), ("garden", F_COMMON), ("gas", F_COMMON), ("gather", F_STARTER),
    ("gb", F_ACRONYM_STOP | F_UNIT), ("gbp", F_ACRONYM_STOP | F_UNIT), ("gdp", F_ACRONYM_STOP),
    ("gen", F_HONORIFIC), ("general", F_COMMON), ("generate", F_STARTER), ("german", F_ALWAYS_DROP),
    ("get", F_STARTER), ("gif", F_ACRONYM_STOP), ("gift", F_COMMON), ("gifts", F_COMMON),
    ("girlfriend", F_COMMON), ("give", F_STARTER), ("gmt", F_ACRONYM_STOP), ("go", F_STARTER),
    ("goal", F_COMMON), ("goals", F_COMMON), ("going", F_STARTER), ("good", F_STARTER),
    ("goodbye", F_STARTER), ("goodnight", F_STARTER), ("got", F_STARTER), ("gov", F_HONORIFIC),
    ("gpa", F_ACRONYM_STOP), ("gps", F_ACRONYM_STOP), ("gpu", F_ACRONYM_STOP), ("grab", F_STARTER),
    ("grade", F_STARTER), ("grades", F_COMMON), ("grams", F_UNIT), ("grandma", F_ALWAYS_DROP),
    ("grandpa", F_ALWAYS_DROP), ("great", F_STARTER), ("greek", F_ALWAYS_DROP),
    ("greet", F_STARTER), ("greetings", F_STARTER), ("groceries", F_COMMON), ("grocery", F_COMMON),
    ("group", F_COMMON), ("guess", F_STARTER), ("guests", F_UNIT), ("guid", F_ACRONYM_STOP),
    ("guys", F_COMMON), ("gym", F_COMMON), ("had", F_STARTER), ("haircut", F_COMMON),
    ("halloween", F_TIME), ("hand", F_STARTER), ("handle", F_STARTER), ("happy", F_STARTER),
    ("has", F_STARTER), ("hasnt", F_STARTER), ("have", F_STARTER), ("havent", F_STARTER),
    ("having", F_STARTER), ("hdd", F_ACRONYM_STOP), ("hdmi", F_ACRONYM_STOP),
    ("he", F_MID_DROP | F_STARTER), ("health", F_COMMON), ("hebrew", F_ALWAYS_DROP),
    ("hello", F_MID_DROP | F_STARTER), ("help", F_STARTER), ("her", F_OBJECT | F_STARTER),
    ("here", F_STARTER), ("herr", F_HONORIFIC), ("hers", F_STARTER),
    ("hey", F_ACRONYM_STOP | F_MID_DROP | F_STARTER),
    ("hi", F_ACRONYM_STOP | F_MID_DROP | F_STARTER), ("highlight", F_STARTER),
    ("highway", F_STREET), ("him", F_MID_DROP | F_OBJECT | F_STARTER), ("hindi", F_ALWAYS_DROP),
    ("hindu", F_ALWAYS_DROP), ("hire", F_COMMON), ("hiring", F_COMMON),
    ("his", F_OBJECT | F_STARTER), ("hispanic", F_ALWAYS_DROP), ("hiya", F_STARTER),
    ("hmm", F_STARTER), ("hoa", F_ACRONYM_STOP), ("hold", F_STARTER), ("holiday", F_COMMON),
    ("home", F_COMMON), ("homework", F_COMMON), ("hon", F_HONORIFIC), ("honestly", F_STARTER),
    ("hope", F_STARTER), ("hopefully", F_STARTER), ("host", F_STARTER), ("hotel", F_COMMON),
    ("hour", F_UNIT), ("hours", F_UNIT), ("house", F_COMMON), ("how", F_MID_DROP | F_STARTER),
    ("howdy", F_STARTER), ("however", F_STARTER), ("hr", F_ACRONYM_STOP | F_UNIT), ("hrs", F_UNIT),
    ("html", F_ACRONYM_STOP), ("http", F_ACRONYM_STOP), ("https", F_ACRONYM_STOP),
    ("hungry", F_COMMON), ("husband", F_COMMON), ("hvac", F_ACRONYM_STOP), ("hwy", F_STREET),
    ("i", F_MID_DROP | F_STARTER), ("ibn", F_CONNECTOR), ("icu", F_ACRONYM_STOP),
    ("id", F_ACRONYM_STOP | F_ID_CUE), ("idea", F_COMMON), ("ideas", F_COMMON),
    ("idk", F_ACRONYM_STOP), ("ids", F_ACRONYM_STOP), ("if", F_MID_DROP | F_STARTER),
    ("ignore", F_STARTER), ("iirc", F_ACRONYM_STOP), ("imagine", F_STARTER),
    ("imho", F_ACRONYM_STOP), ("imo", F_ACRONYM_STOP), ("import", F_STARTER),
    ("important", F_COMMON), ("in", F_MID_DROP | F_STARTER), ("inc", F_SUFFIX_DOT),
    ("include", F_STARTER), ("indian", F_ALWAYS_DROP), ("indonesian", F_ALWAYS_DROP),
    ("info", F_COMMON), ("inform", F_STARTER), ("information", F_COMMON), ("insert", F_STARTER),
    ("install", F_STARTER), ("instead", F_STARTER), ("insurance", F_COMMON), ("interest", F_COMMON),
    ("internet", F_ALWAYS_DROP), ("interview", F_COMMON), ("into", F_STARTER),
    ("introduce", F_STARTER), ("investigate", F_STARTER), ("invite", F_STARTER),
    ("invoice", F_COMMON | F_ID_CUE), ("invoices", F_COMMON), ("ip", F_ACRONYM_STOP),
    ("iq", F_ACRONYM_STOP), ("irish", F_ALWAYS_DROP), ("irl", F_ACRONYM_STOP),
    ("is", F_MID_DROP | F_STARTER), ("isbn", F_ACRONYM_STOP), ("isnt", F_STARTER),
    ("israeli", F_ALWAYS_DROP), ("issue", F_COMMON), ("issues", F_COMMON),
    ("it", F_MID_DROP | F_OBJECT | F_STARTER), ("italian", F_ALWAYS_DROP),
    ("item", F_COMMON | F_ID_CUE), ("items", F_COMMON | F_UNIT),
    ("its", F_MID_DROP | F_OBJECT | F_STARTER), ("jan", F_TIME), ("january", F_TIME),
    ("japanese", F_ALWAYS_DROP), ("jewish", F_ALWAYS_DROP), ("job", F_COMMON), ("join", F_STARTER),
    ("jot", F_STARTER), ("journal", F_STARTER), ("jpg", F_ACRONYM_STOP), ("jpy", F_ACRONYM_STOP),
    ("jr", F_ABBREV_JOIN | F_SUFFIX_DOT), ("json", F_ACRONYM_STOP), ("jul", F_TIME),
    ("july", F_TIME), ("jun", F_TIME), ("june", F_TIME), ("just", F_STARTER), ("k", F_UNIT),
    ("kb", F_ACRONYM_STOP), ("keep", F_STARTER), ("kg", F_UNIT), ("kid", F_COMMON),
    ("kids", F_COMMON), ("kind", F_STARTER), ("kindly", F_STARTER), ("kitchen", F_COMMON),
    ("km", F_UNIT), ("know", F_STARTER), ("korean", F_ALWAYS_DROP), ("kpi", F_ACRONYM_STOP),
    ("kpis", F_ACRONYM_STOP), ("l", F_UNIT), ("la", F_CONNECTOR), ("label", F_STARTER),
    ("lan", F_ACRONYM_STOP), ("landlord", F_COMMON), ("lane", F_STREET), ("laptop", F_COMMON),
    ("last", F_STARTER), ("late", F_COMMON), ("lately", F_STARTER), ("later", F_STARTER),
    ("latest", F_COMMON | F_STARTER), ("latin", F_ALWAYS_DROP), ("launch", F_COMMON),
    ("laundry", F_COMMON), ("lawyer", F_COMMON), ("lb", F_UNIT), ("lbs", F_UNIT),
    ("lcd", F_ACRONYM_STOP), ("le", F_CONNECTOR), ("lead", F_COMMON), ("learn", F_STARTER),
    ("lease", F_COMMON), ("leave", F_STARTER), ("led", F_ACRONYM_STOP), ("lend", F_STARTER),
    ("less", F_UNIT), ("lesson", F_COMMON), ("let", F_STARTER), ("lets", F_STARTER),
    ("lgtm", F_ACRONYM_STOP), ("licence", F_COMMON), ("license", F_COMMON), ("like", F_STARTER),
    ("link", F_COMMON | F_STARTER), ("list", F_COMMON | F_STARTER), ("listen", F_STARTER),
    ("lists", F_COMMON), ("liters", F_UNIT), ("litres", F_UNIT), ("llm", F_ACRONYM_STOP),
    ("lmao", F_ACRONYM_STOP), ("ln", F_STREET), ("load", F_STARTER), ("loan", F_COMMON),
    ("locate", F_STARTER), ("lock", F_STARTER), ("log", F_STARTER), ("login", F_COMMON),
    ("lol", F_ACRONYM_STOP), ("long", F_COMMON), ("look", F_STARTER), ("lookup", F_STARTER),
    ("lovely", F_STARTER), ("lt", F_HONORIFIC), ("ltd", F_SUFFIX_DOT), ("lunch", F_COMMON),
    ("m", F_UNIT), ("m&a", F_ACRONYM_STOP), ("mail", F_STARTER), ("main", F_COMMON),
    ("make", F_STARTER), ("malaysian", F_ALWAYS_DROP), ("manage", F_STARTER), ("manager", F_COMMON),
    ("mandarin", F_ALWAYS_DROP), ("many", F_STARTER), ("mar", F_TIME), ("march", F_TIME),
    ("mark", F_STARTER), ("match", F_COMMON), ("may", F_TIME), ("maybe", F_STARTER),
    ("mb", F_ACRONYM_STOP | F_UNIT), ("me", F_MID_DROP | F_OBJECT | F_STARTER),
    ("meanwhile", F_STARTER), ("measure", F_STARTER), ("mechanic", F_COMMON),
    ("medication", F_COMMON), ("medicine", F_COMMON), ("meet", F_STARTER), ("meeting", F_COMMON),
    ("meetings", F_COMMON), ("member", F_ID_CUE), ("memo", F_COMMON), ("memorize", F_STARTER),
    ("merge", F_STARTER), ("message", F_COMMON), ("messages", F_COMMON | F_UNIT),
    ("metrics", F_COMMON), ("mexican", F_ALWAYS_DROP), ("mfa", F_ACRONYM_STOP), ("mi", F_UNIT),
    ("midnight", F_TIME), ("might", F_STARTER), ("miles", F_UNIT), ("min", F_UNIT),
    ("mine", F_STARTER), ("mins", F_UNIT), ("minute", F_UNIT), ("minutes", F_UNIT),
    ("miss", F_HONORIFIC), ("ml", F_ACRONYM_STOP | F_UNIT), ("mlle", F_HONORIFIC),
    ("mme", F_HONORIFIC), ("modify", F_STARTER), ("mom", F_ALWAYS_DROP | F_COMMON),
    ("mommy", F_ALWAYS_DROP | F_COMMON), ("mon", F_TIME), ("monday", F_TIME), ("money", F_COMMON),
    ("monitor", F_STARTER), ("month", F_COMMON | F_UNIT), ("monthly", F_COMMON), ("months", F_UNIT),
    ("more", F_STARTER | F_UNIT), ("moreover", F_STARTER), ("morning", F_STARTER),
    ("mortgage", F_COMMON), ("most", F_STARTER), ("mother", F_COMMON), ("move", F_STARTER),
    ("movie", F_COMMON), ("movies", F_COMMON), ("mp3", F_ACRONYM_STOP), ("mp4", F_ACRONYM_STOP),
    ("mr", F_HONORIFIC), ("mri", F_ACRONYM_STOP), ("mrs", F_HONORIFIC), ("ms", F_HONORIFIC),
    ("mst", F_ACRONYM_STOP), ("mt", F_ABBREV_JOIN), ("much", F_STARTER),
    ("mum", F_ALWAYS_DROP | F_COMMON), ("music", F_COMMON), ("muslim", F_ALWAYS_DROP),
    ("must", F_STARTER), ("mute", F_STARTER), ("mvp", F_ACRONYM_STOP), ("mx", F_HONORIFIC),
    ("my", F_MID_DROP | F_OBJECT | F_STARTER), ("nas", F_ACRONYM_STOP), ("nb", F_ACRONYM_STOP),
    ("need", F_STARTER), ("neighbor", F_COMMON), ("neighbour", F_COMMON), ("neither", F_STARTER),
    ("nephew", F_COMMON), ("never", F_STARTER), ("new", F_COMMON), ("news", F_COMMON),
    ("next", F_STARTER), ("nfc", F_ACRONYM_STOP), ("nice", F_STARTER), ("niece", F_COMMON),
    ("nigerian", F_ALWAYS_DROP), ("night", F_STARTER), ("nights", F_UNIT),
    ("no", F_ACRONYM_STOP | F_ID_CUE | F_MID_DROP | F_STARTER), ("nobody", F_STARTER),
    ("none", F_STARTER), ("noon", F_TIME), ("nope", F_STARTER), ("nor", F_STARTER),
    ("northern", F_ALWAYS_DROP), ("norwegian", F_ALWAYS_DROP), ("not", F_STARTER),
    ("note", F_STARTER), ("notes", F_COMMON), ("nothing", F_STARTER), ("notify", F_STARTER),
    ("nov", F_TIME), ("november", F_TIME), ("now", F_STARTER), ("np", F_ACRONYM_STOP),
    ("num", F_ID_CUE), ("number", F_ID_CUE), ("numbers", F_COMMON), ("nurse", F_COMMON),
    ("ocr", F_ACRONYM_STOP), ("oct", F_TIME), ("october", F_TIME),
    ("of", F_CONNECTOR | F_MID_DROP | F_STARTER), ("off", F_OBJECT | F_STARTER),
    ("offer", F_STARTER), ("office", F_COMMON), ("oh", F_STARTER),
    ("ok", F_ACRONYM_STOP | F_MID_DROP | F_STARTER),
    ("okay", F_ACRONYM_STOP | F_MID_DROP | F_STARTER), ("okr", F_ACRONYM_STOP),
    ("okrs", F_ACRONYM_STOP), ("old", F_COMMON), ("omg", F_ACRONYM_STOP),
    ("on", F_MID_DROP | F_STARTER), ("onboarding", F_COMMON), ("once", F_STARTER),
    ("one", F_STARTER), ("only", F_STARTER), ("ooo", F_ACRONYM_STOP), ("oops", F_STARTER),
    ("open", F_STARTER), ("or", F_MID_DROP | F_STARTER), ("order", F_ID_CUE | F_STARTER),
    ("organise", F_STARTER), ("organize", F_STARTER), ("os", F_ACRONYM_STOP), ("other", F_STARTER),
    ("otherwise", F_STARTER), ("otp", F_ACRONYM_STOP), ("our", F_MID_DROP | F_OBJECT | F_STARTER),
    ("ours", F_STARTER), ("out", F_OBJECT | F_STARTER), ("outline", F_STARTER), ("over", F_STARTER),
    ("overdue", F_COMMON), ("owe", F_STARTER), ("own", F_STARTER), ("oz", F_ACRONYM_STOP),
    ("p&l", F_ACRONYM_STOP), ("pack", F_STARTER), ("package", F_COMMON | F_ID_CUE),
    ("page", F_COMMON), ("pages", F_UNIT), ("paint", F_STARTER), ("pair", F_STARTER),
    ("pakistani", F_ALWAYS_DROP), ("paper", F_COMMON), ("parcel", F_COMMON | F_ID_CUE),
    ("parents", F_COMMON), ("parking", F_COMMON), ("parkway", F_STREET), ("partner", F_COMMON),
    ("party", F_COMMON), ("pass", F_STARTER), ("passport", F_COMMON), ("password", F_COMMON),
    ("paste", F_STARTER), ("patch", F_STARTER), ("patient", F_ID_CUE), ("pause", F_STARTER),
    ("pay", F_STARTER), ("paycheck", F_COMMON), ("payment", F_COMMON), ("payments", F_COMMON),
    ("pc", F_ACRONYM_STOP), ("pct", F_UNIT), ("pdf", F_ACRONYM_STOP), ("pdfs", F_ACRONYM_STOP),
    ("pdt", F_ACRONYM_STOP), ("pending", F_COMMON), ("people", F_COMMON | F_UNIT),
    ("per", F_STARTER), ("percent", F_UNIT), ("perfect", F_STARTER), ("perhaps", F_STARTER),
    ("persian", F_ALWAYS_DROP), ("personal", F_COMMON), ("persons", F_UNIT),
    ("peruvian", F_ALWAYS_DROP), ("pet", F_COMMON), ("pharmacy", F_COMMON), ("phone", F_COMMON),
    ("photo", F_COMMON), ("photos", F_COMMON), ("pick", F_STARTER), ("picture", F_COMMON),
    ("pictures", F_COMMON), ("pieces", F_UNIT), ("pills", F_COMMON),
    ("pin", F_ACRONYM_STOP | F_STARTER), ("ping", F_STARTER), ("pizza", F_COMMON),
    ("pkwy", F_STREET), ("pl", F_STREET), ("place", F_STARTER | F_STREET), ("plan", F_STARTER),
    ("plans", F_COMMON), ("plants", F_COMMON), ("play", F_STARTER), ("plaza", F_STREET),
    ("please", F_MID_DROP | F_STARTER), ("pls", F_ACRONYM_STOP | F_STARTER), ("plumber", F_COMMON),
    ("plus", F_STARTER), ("plz", F_ACRONYM_STOP), ("pm", F_ACRONYM_STOP | F_UNIT),
    ("png", F_ACRONYM_STOP), ("pnr", F_ID_CUE), ("po", F_ID_CUE), ("poc", F_ACRONYM_STOP),
    ("podcast", F_COMMON), ("points", F_UNIT), ("policy", F_COMMON | F_ID_CUE),
    ("polish", F_ALWAYS_DROP), ("portuguese", F_ALWAYS_DROP), ("post", F_STARTER),
    ("postpone", F_STARTER), ("pound", F_UNIT), ("pounds", F_UNIT), ("pps", F_ACRONYM_STOP),
    ("pr", F_ACRONYM_STOP), ("practice", F_STARTER), ("predict", F_STARTER), ("prepare", F_STARTER),
    ("prescription", F_COMMON), ("present", F_COMMON), ("presentation", F_COMMON),
    ("previous", F_COMMON | F_STARTER), ("price", F_COMMON), ("pricing", F_COMMON),
    ("print", F_STARTER), ("prioritise", F_STARTER), ("prioritize", F_STARTER),
    ("priority", F_COMMON), ("private", F_COMMON), ("probably", F_STARTER), ("problem", F_COMMON),
    ("produce", F_STARTER), ("product", F_COMMON), ("prof", F_HONORIFIC),
    ("professor", F_HONORIFIC), ("profile", F_COMMON), ("profit", F_COMMON), ("progress", F_COMMON),
    ("project", F_COMMON), ("projects", F_COMMON), ("proofread", F_STARTER), ("proposal", F_COMMON),
    ("propose", F_STARTER), ("provide", F_STARTER), ("ps", F_ACRONYM_STOP), ("pst", F_ACRONYM_STOP),
    ("ptal", F_ACRONYM_STOP), ("pto", F_ACRONYM_STOP), ("pts", F_UNIT), ("publish", F_STARTER),
    ("pull", F_STARTER), ("purchase", F_COMMON), ("purge", F_STARTER), ("push", F_STARTER),
    ("put", F_STARTER), ("q&a", F_ACRONYM_STOP), ("qa", F_ACRONYM_STOP), ("qr", F_ACRONYM_STOP),
    ("question", F_COMMON), ("questions", F_COMMON), ("quick", F_COMMON | F_STARTER),
    ("quickly", F_STARTER), ("quid", F_UNIT), ("quite", F_STARTER), ("r&d", F_ACRONYM_STOP),
    ("rain", F_COMMON), ("ram", F_ACRONYM_STOP), ("random", F_COMMON), ("rank", F_STARTER),
    ("rate", F_COMMON), ("rates", F_COMMON), ("rather", F_STARTER), ("rd", F_STREET),
    ("re", F_ACRONYM_STOP | F_STARTER), ("reach", F_STARTER), ("read", F_STARTER),
    ("ready", F_COMMON), ("really", F_STARTER), ("reassign", F_STARTER), ("rebase", F_STARTER),
    ("recall", F_STARTER), ("recap", F_COMMON | F_STARTER), ("receipt", F_COMMON | F_ID_CUE),
    ("recent", F_COMMON), ("recently", F_STARTER), ("recipe", F_COMMON), ("recommend", F_STARTER),
    ("record", F_ID_CUE | F_STARTER), ("recover", F_STARTER), ("redo", F_STARTER),
    ("ref", F_ID_CUE), ("reference", F_COMMON | F_ID_CUE), ("refresh", F_STARTER),
    ("refund", F_COMMON | F_STARTER), ("regarding", F_STARTER), ("regardless", F_STARTER),
    ("register", F_STARTER), ("reject", F_STARTER), ("relax", F_STARTER), ("release", F_COMMON),
    ("reload", F_STARTER), ("remember", F_STARTER), ("remind", F_STARTER), ("reminder", F_COMMON),
    ("reminders", F_COMMON), ("remove", F_STARTER), ("rename", F_STARTER),
    ("renegotiate", F_STARTER), ("renew", F_STARTER), ("renewal", F_COMMON), ("rent", F_COMMON),
    ("reopen", F_STARTER), ("rep", F_HONORIFIC), ("repair", F_STARTER), ("repairs", F_COMMON),
    ("rephrase", F_STARTER), ("replace", F_STARTER), ("reply", F_STARTER), ("report", F_COMMON),
    ("reports", F_COMMON), ("request", F_COMMON), ("reschedule", F_STARTER),
    ("research", F_STARTER), ("reservation", F_COMMON | F_ID_CUE), ("reserve", F_STARTER),
    ("reset", F_STARTER), ("resolve", F_STARTER), ("respond", F_STARTER), ("response", F_COMMON),
    ("rest", F_STARTER), ("restart", F_STARTER), ("restaurant", F_COMMON), ("restore", F_STARTER),
    ("results", F_COMMON), ("resume", F_STARTER), ("retrieve", F_STARTER), ("retry", F_STARTER),
    ("return", F_COMMON | F_STARTER), ("rev", F_HONORIFIC), ("revenue", F_COMMON),
    ("revert", F_STARTER), ("review", F_STARTER), ("rewrite", F_STARTER), ("rfid", F_ACRONYM_STOP),
    ("right", F_STARTER), ("rna", F_ACRONYM_STOP), ("road", F_STREET), ("roi", F_ACRONYM_STOP),
    ("rom", F_ACRONYM_STOP), ("room", F_COMMON), ("roommate", F_COMMON), ("rooms", F_UNIT),
    ("row", F_STREET), ("rsvp", F_ACRONYM_STOP), ("run", F_STARTER), ("russian", F_ALWAYS_DROP),
    ("rv", F_ACRONYM_STOP), ("saas", F_ACRONYM_STOP), ("salary", F_COMMON), ("sale", F_COMMON),
    ("sales", F_COMMON), ("same", F_COMMON), ("sat", F_TIME), ("saturday", F_TIME),
    ("save", F_STARTER), ("say", F_STARTER), ("scan", F_STARTER),
    ("schedule", F_COMMON | F_STARTER), ("school", F_COMMON), ("score", F_STARTER),
    ("scottish", F_ALWAYS_DROP), ("screenshot", F_COMMON), ("sdk", F_ACRONYM_STOP),
    ("search", F_STARTER), ("seats", F_COMMON | F_UNIT), ("second", F_COMMON), ("seconds", F_UNIT),
    ("secs", F_UNIT), ("see", F_STARTER), ("select", F_STARTER), ("sell", F_STARTER),
    ("sen", F_HONORIFIC), ("send", F_STARTER), ("sep", F_TIME), ("sept", F_TIME),
    ("september", F_TIME), ("serial", F_ID_CUE), ("server", F_COMMON), ("set", F_STARTER),
    ("settings", F_COMMON), ("setup", F_STARTER), ("several", F_STARTER), ("sgt", F_HONORIFIC),
    ("shall", F_STARTER), ("share", F_STARTER), ("she", F_MID_DROP | F_STARTER),
    ("sheet", F_COMMON), ("shift", F_STARTER), ("ship", F_STARTER),
    ("shipment", F_COMMON | F_ID_CUE), ("shopping", F_COMMON), ("short", F_COMMON),
    ("shorten", F_STARTER), ("should", F_STARTER), ("shouldnt", F_STARTER),
    ("show", F_COMMON | F_STARTER), ("shows", F_COMMON), ("sick", F_COMMON), ("sign", F_STARTER),
    ("sim", F_ACRONYM_STOP), ("similarly", F_STARTER), ("since", F_STARTER), ("sir", F_HONORIFIC),
    ("sister", F_COMMON), ("site", F_COMMON), ("skim", F_STARTER), ("skip", F_STARTER),
    ("sku", F_ID_CUE), ("sla", F_ACRONYM_STOP), ("sleep", F_STARTER), ("slides", F_COMMON),
    ("small", F_COMMON), ("sms", F_ACRONYM_STOP), ("snooze", F_STARTER), ("snow", F_COMMON),
    ("so", F_MID_DROP | F_STARTER), ("some", F_OBJECT | F_STARTER), ("somebody", F_STARTER),
    ("someone", F_COMMON | F_STARTER), ("something", F_STARTER), ("sometimes", F_STARTER),
    ("son", F_COMMON), ("song", F_COMMON), ("songs", F_COMMON), ("soon", F_STARTER),
    ("sorry", F_STARTER), ("sort", F_STARTER), ("southern", F_ALWAYS_DROP),
    ("spanish", F_ALWAYS_DROP), ("split", F_STARTER), ("spreadsheet", F_COMMON), ("sq", F_STREET),
    ("square", F_STREET), ("sr", F_ABBREV_JOIN | F_SUFFIX_DOT), ("ssd", F_ACRONYM_STOP),
    ("ssh", F_ACRONYM_STOP), ("ssl", F_ACRONYM_STOP), ("ssn", F_ACRONYM_STOP),
    ("sso", F_ACRONYM_STOP), ("st", F_ABBREV_JOIN | F_STREET), ("star", F_STARTER),
    ("start", F_STARTER), ("statement", F_COMMON), ("stats", F_COMMON), ("status", F_COMMON),
    ("stay", F_STARTER), ("still", F_STARTER), ("stop", F_STARTER), ("store", F_STARTER),
    ("strasse", F_STREET), ("stream", F_STARTER), ("street", F_STREET), ("study", F_STARTER),
    ("stuff", F_COMMON), ("submit", F_STARTER), ("subscribe", F_STARTER),
    ("subscription", F_COMMON), ("such", F_STARTER), ("suggest", F_STARTER), ("sum", F_STARTER),
    ("summarise", F_STARTER), ("summarize", F_STARTER), ("summary", F_COMMON), ("sunday", F_TIME),
    ("sup", F_STARTER), ("super", F_STARTER), ("supplier", F_COMMON), ("supply", F_STARTER),
    ("support", F_STARTER), ("suppose", F_STARTER), ("sure", F_STARTER), ("surgery", F_COMMON),
    ("suv", F_ACRONYM_STOP), ("svp", F_ACRONYM_STOP), ("swedish", F_ALWAYS_DROP),
    ("swiss", F_ALWAYS_DROP), ("switch", F_STARTER), ("sync", F_STARTER), ("table", F_COMMON),
    ("tag", F_STARTER), ("take", F_STARTER), ("task", F_COMMON), ("tasks", F_COMMON),
    ("tax", F_COMMON), ("taxes", F_COMMON), ("taxi", F_COMMON), ("tb", F_ACRONYM_STOP | F_UNIT),
    ("tba", F_ACRONYM_STOP), ("tbd", F_ACRONYM_STOP), ("tbh", F_ACRONYM_STOP),
    ("tcp", F_ACRONYM_STOP), ("teach", F_STARTER), ("teacher", F_COMMON), ("team", F_COMMON),
    ("tell", F_STARTER), ("tenant", F_COMMON), ("terrace", F_STREET), ("test", F_COMMON),
    ("tests", F_COMMON), ("text", F_STARTER), ("texts", F_COMMON), ("thai", F_ALWAYS_DROP),
    ("than", F_STARTER), ("thank", F_MID_DROP | F_STARTER), ("thanks", F_MID_DROP | F_STARTER),
    ("thanksgiving", F_TIME), ("thanx", F_STARTER), ("that", F_MID_DROP | F_OBJECT | F_STARTER),
    ("thats", F_STARTER), ("the", F_CONNECTOR | F_OBJECT | F_STARTER),
    ("their", F_MID_DROP | F_OBJECT | F_STARTER), ("theirs", F_STARTER),
    ("them", F_MID_DROP | F_OBJECT | F_STARTER), ("then", F_MID_DROP | F_STARTER),
    ("therapist", F_COMMON), ("there", F_STARTER), ("therefore", F_STARTER),
    ("these", F_OBJECT | F_STARTER), ("thesis", F_COMMON), ("they", F_MID_DROP | F_STARTER),
    ("thing", F_COMMON), ("things", F_COMMON), ("think", F_STARTER),
    ("this", F_MID_DROP | F_OBJECT | F_STARTER), ("those", F_OBJECT | F_STARTER),
    ("though", F_STARTER), ("through", F_STARTER), ("thu", F_TIME), ("thur", F_TIME),
    ("thurs", F_TIME), ("thursday", F_TIME), ("thus", F_STARTER),
    ("thx", F_ACRONYM_STOP | F_STARTER), ("ticket", F_COMMON | F_ID_CUE),
    ("tickets", F_COMMON | F_UNIT), ("tidy", F_STARTER), ("times", F_UNIT), ("tin", F_ACRONYM_STOP),
    ("tip", F_STARTER), ("tired", F_COMMON), ("tl", F_ACRONYM_STOP), ("tldr", F_ACRONYM_STOP),
    ("tls", F_ACRONYM_STOP), ("to", F_MID_DROP | F_STARTER), ("today", F_TIME),
    ("todo", F_ACRONYM_STOP | F_COMMON), ("toggle", F_STARTER), ("tomorrow", F_TIME),
    ("tonight", F_TIME), ("too", F_STARTER), ("total", F_COMMON | F_STARTER),
    ("totally", F_STARTER), ("track", F_STARTER), ("tracking", F_ID_CUE), ("traffic", F_COMMON),
    ("train", F_COMMON), ("training", F_COMMON), ("transaction", F_COMMON | F_ID_CUE),
    ("transcribe", F_STARTER), ("transfer", F_COMMON | F_STARTER), ("translate", F_STARTER),
    ("travel", F_COMMON), ("trip", F_COMMON), ("try", F_STARTER), ("ttyl", F_ACRONYM_STOP),
    ("tue", F_TIME), ("tues", F_TIME), ("tuesday", F_TIME), ("turkish", F_ALWAYS_DROP),
    ("turn", F_STARTER), ("tv", F_ACRONYM_STOP), ("tweak", F_STARTER), ("tweet", F_STARTER),
    ("ty", F_ACRONYM_STOP | F_STARTER), ("type", F_STARTER), ("udp", F_ACRONYM_STOP),
    ("ugh", F_STARTER), ("uh", F_STARTER), ("ui", F_ACRONYM_STOP), ("ukrainian", F_ALWAYS_DROP),
    ("um", F_STARTER), ("umm", F_STARTER), ("unassign", F_STARTER), ("unblock", F_STARTER),
    ("uncle", F_COMMON), ("under", F_STARTER), ("undo", F_STARTER), ("unfortunately", F_STARTER),
    ("uninstall", F_STARTER), ("units", F_UNIT), ("unless", F_STARTER), ("unlink", F_STARTER),
    ("unlock", F_STARTER), ("unmute", F_STARTER), ("unpack", F_STARTER), ("unpin", F_STARTER),
    ("unsubscribe", F_STARTER), ("untag", F_STARTER), ("until", F_STARTER),
    ("up", F_OBJECT | F_STARTER), ("upcoming", F_COMMON), ("update", F_COMMON | F_STARTER),
    ("updates", F_COMMON), ("upgrade", F_STARTER), ("upload", F_STARTER), ("urgent", F_COMMON),
    ("url", F_ACRONYM_STOP), ("urls", F_ACRONYM_STOP), ("us", F_MID_DROP | F_OBJECT | F_STARTER),
    ("usb", F_ACRONYM_STOP), ("usd", F_ACRONYM_STOP | F_UNIT), ("use", F_STARTER),
    ("usually", F_STARTER), ("utc", F_ACRONYM_STOP), ("utilities", F_COMMON),
    ("uuid", F_ACRONYM_STOP), ("ux", F_ACRONYM_STOP), ("vacation", F_COMMON),
    ("validate", F_STARTER), ("van", F_CONNECTOR), ("vat", F_ACRONYM_STOP), ("vendor", F_COMMON),
    ("verify", F_STARTER), ("very", F_STARTER), ("vet", F_COMMON), ("vga", F_ACRONYM_STOP),
    ("via", F_STARTER), ("video", F_COMMON), ("videos", F_COMMON), ("vietnamese", F_ALWAYS_DROP),
    ("visa", F_COMMON), ("visit", F_COMMON | F_STARTER), ("vitamins", F_COMMON),
    ("von", F_CONNECTOR), ("vote", F_STARTER), ("voucher", F_COMMON), ("vp", F_ACRONYM_STOP),
    ("vpn", F_ACRONYM_STOP), ("wait", F_STARTER), ("walk", F_STARTER), ("wan", F_ACRONYM_STOP),
    ("want", F_STARTER), ("warn", F_STARTER), ("was", F_MID_DROP | F_STARTER), ("wash", F_STARTER),
    ("wasnt", F_STARTER), ("watch", F_STARTER), ("water", F_COMMON), ("way", F_STREET),
    ("we", F_MID_DROP | F_STARTER), ("weather", F_COMMON), ("website", F_COMMON), ("wed", F_TIME),
    ("wedding", F_COMMON), ("wednesday", F_TIME), ("week", F_COMMON | F_UNIT),
    ("weekend", F_COMMON), ("weekly", F_COMMON), ("weeks", F_UNIT), ("welcome", F_STARTER),
    ("well", F_STARTER), ("welsh", F_ALWAYS_DROP), ("were", F_STARTER), ("werent", F_STARTER),
    ("western", F_ALWAYS_DROP), ("wfh", F_ACRONYM_STOP), ("what", F_MID_DROP | F_STARTER),
    ("whatever", F_STARTER), ("when", F_MID_DROP | F_STARTER), ("whenever", F_STARTER),
    ("where", F_MID_DROP | F_STARTER), ("whereas", F_STARTER), ("wherever", F_STARTER),
    ("whether", F_STARTER), ("which", F_STARTER), ("whichever", F_STARTER), ("while", F_STARTER),
    ("who", F_MID_DROP | F_STARTER), ("whoever", F_STARTER), ("whom", F_STARTER),
    ("whoops", F_STARTER), ("whose", F_STARTER), ("why", F_MID_DROP | F_STARTER),
    ("wi-fi", F_ALWAYS_DROP), ("wife", F_COMMON), ("wifi", F_ACRONYM_STOP), ("will", F_STARTER),
    ("wine", F_COMMON), ("wip", F_ACRONYM_STOP), ("wipe", F_STARTER), ("wire", F_STARTER),
    ("with", F_STARTER), ("withdraw", F_STARTER), ("withdrawal", F_COMMON), ("within", F_STARTER),
    ("without", F_STARTER), ("wonder", F_STARTER), ("wont", F_STARTER),
    ("work", F_COMMON | F_STARTER), ("workout", F_COMMON), ("workshop", F_COMMON),
    ("would", F_STARTER), ("wouldnt", F_STARTER), ("wow", F_STARTER), ("write", F_STARTER),
    ("wtf", F_ACRONYM_STOP), ("x", F_UNIT), ("xmas", F_TIME), ("xml", F_ACRONYM_STOP),
    ("y", F_CONNECTOR), ("yard", F_COMMON), ("yeah", F_STARTER), ("year", F_COMMON | F_UNIT),
    ("yearly", F_COMMON), ("years", F_UNIT), ("yep", F_STARTER),
    ("yes", F_ACRONYM_STOP | F_MID_DROP | F_STARTER), ("yesterday", F_TIME), ("yet", F_STARTER),
    ("yo", F_STARTER), ("yoga", F_COMMON), ("you", F_MID_DROP | F_STARTER),
    ("your", F_MID_DROP | F_OBJECT | F_STARTER), ("yours", F_STARTER), ("yrs", F_UNIT),
    ("yup", F_STARTER),
];

#[rustfmt::skip]
pub(super) const TLDS: &[&str] = &[
    "ad", "ae", "agency", "ai", "app", "ar", "at", "au", "be", "biz", "blog", "br", "by", "ca",
    "cc", "ch", "cl", "cloud", "cn", "co", "com", "company", "cz", "de", "design", "dev", "digital",
    "dk", "edu", "ee", "eg", "email", "es", "eu", "fi", "fm", "fr", "gg", "global", "gov", "gr",
    "hk", "hr", "hu", "id", "ie", "il", "in", "info", "int", "io", "is", "it", "jp", "ke", "kr",
    "kz", "li", "life", "live", "lt", "lu", "lv", "ly", "ma", "mc", "me", "mil", "museum", "mx",
    "my", "net", "network", "news", "ng", "nl", "no", "nz", "online", "org", "page", "ph", "pk",
    "pl", "pro", "pt", "qa", "ro", "rs", "ru", "sa", "se", "sg", "sh", "shop", "si", "site", "sk",
    "so", "solutions", "store", "studio", "systems", "tech", "th", "to", "today", "tr", "travel",
    "tv", "tw", "ua", "uk", "us", "vn", "world", "ws", "xyz", "za",
];

#[rustfmt::skip]
pub(super) const FILE_EXTS: &[&str] = &[
    "7z", "apk", "c", "cfg", "cjs", "conf", "cpp", "cs", "csv", "dmg", "doc", "docx", "eml", "env",
    "epub", "exe", "gif", "go", "gz", "h", "heic", "hpp", "htm", "html", "ics", "ini", "ipa",
    "java", "jpeg", "jpg", "js", "json", "jsx", "key", "lock", "log", "m4a", "md", "mjs", "mov",
    "mp3", "mp4", "msg", "numbers", "ods", "odt", "pages", "pdf", "php", "png", "ppt", "pptx", "py",
    "rar", "rb", "rs", "rtf", "sh", "sql", "svg", "tar", "tgz", "toml", "ts", "tsx", "txt", "vcf",
    "wasm", "wav", "webp", "xls", "xlsx", "xml", "yaml", "yml", "zip",
];

/// A top-level domain ("com", "io").
pub(super) const F_TLD: u16 = 1 << 14;
/// A file extension ("pdf", "rs").
pub(super) const F_FILE_EXT: u16 = 1 << 15;

/// Words per block; the first word of each block is stored whole. 8 keeps a lookup's scan short:
/// with 128 the 1 MiB extraction bench took twice as long, for 0.8 KB less gzip.
const BLOCK: usize = 8;
/// A terminator byte: `TERMINATOR | flag set index`. Word bytes are ASCII, so below it.
const TERMINATOR: u8 = 0x80;

/// The flags of a lowercase ASCII word, 0 when it is in no list.
pub(super) fn flags_of(key: &[u8]) -> u16 {
    let table = &TABLE;
    let mut word = [0u8; MAX_LOOKUP_BYTES];
    // The last block whose first word is not after `key`.
    let (mut lo, mut hi) = (0, table.block_start.len());
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        let (len, _, _) = table.entry(usize::from(table.block_start[mid]), &mut word);
        if word.get(..len).is_some_and(|w| w <= key) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let mut pos = usize::from(table.block_start[lo]);
    while pos < table.bytes.len() {
        let (len, set, next) = table.entry(pos, &mut word);
        match word.get(..len).map(|w| w.cmp(key)) {
            Some(std::cmp::Ordering::Less) => pos = next,
            Some(std::cmp::Ordering::Equal) => return table.flag_sets.get(set).map_or(0, |f| *f),
            _ => break,
        }
    }
    0
}

/// The merged lists, front-coded (see the module docs).
struct Table<const BYTES: usize, const BLOCKS: usize, const SETS: usize> {
    bytes: [u8; BYTES],
    /// Offset in `bytes` of each block's first word.
    block_start: [u16; BLOCKS],
    /// The distinct flag values, indexed by terminator bytes.
    flag_sets: [u16; SETS],
}

impl<const BYTES: usize, const BLOCKS: usize, const SETS: usize> Table<BYTES, BLOCKS, SETS> {
    /// Decodes the entry at `pos` into `word` (whose first bytes hold the previous word):
    /// its length, flag set index and the position of the next entry.
    fn entry(&self, pos: usize, word: &mut [u8; MAX_LOOKUP_BYTES]) -> (usize, usize, usize) {
        let mut len = self.bytes.get(pos).map_or(0, |&b| usize::from(b));
        let mut pos = pos + 1;
        while let Some(&b) = self.bytes.get(pos) {
            pos += 1;
            if b >= TERMINATOR {
                return (len, usize::from(b - TERMINATOR), pos);
            }
            if let Some(slot) = word.get_mut(len) {
                *slot = b;
            }
            len += 1;
        }
        (len, 0, pos)
    }

    const fn new() -> Self {
        let mut table = Table {
            bytes: [0; BYTES],
            block_start: [0; BLOCKS],
            flag_sets: [0; SETS],
        };
        let sizes = encode(
            &mut table.bytes,
            &mut table.block_start,
            &mut table.flag_sets,
        );
        assert!(sizes[0] == BYTES && sizes[1] == BLOCKS && sizes[2] == SETS);
        table
    }
}

/// Sizes of the encoded table: bytes, blocks, flag sets.
const SIZES: [usize; 3] = encode(&mut [], &mut [], &mut []);
static TABLE: Table<{ SIZES[0] }, { SIZES[1] }, { SIZES[2] }> = Table::new();

/// Merges the three sorted lists (a word in several gets the union of their flags) and
/// front-codes them into `bytes`, `block_start` and `flag_sets` as far as those reach;
/// returns the sizes the whole table needs.
const fn encode(bytes: &mut [u8], block_start: &mut [u16], flag_sets: &mut [u16]) -> [usize; 3] {
    let (mut i, mut j, mut k) = (0, 0, 0);
    let (mut pos, mut entries, mut sets) = (0, 0, 0);
    let mut prev: &[u8] = &[];
    let mut seen_sets = [0u16; 0x80];
    loop {
        // The smallest word at the head of a list, then the flags of every list holding it.
        let mut word: &[u8] = &[];
        let mut found = false;
        if i < LEXICON.len() {
            word = LEXICON[i].0.as_bytes();
            found = true;
        }
        if j < TLDS.len() && (!found || less(TLDS[j].as_bytes(), word)) {
            word = TLDS[j].as_bytes();
            found = true;
        }
        if k < FILE_EXTS.len() && (!found || less(FILE_EXTS[k].as_bytes(), word)) {
            word = FILE_EXTS[k].as_bytes();
            found = true;
        }
        if !found {
            break;
        }
        let mut flags = 0;
        if i < LEXICON.len() && equal(LEXICON[i].0.as_bytes(), word) {
            flags |= LEXICON[i].1;
            i += 1;
        }
        if j < TLDS.len() && equal(TLDS[j].as_bytes(), word) {
            flags |= F_TLD;
            j += 1;
        }
        if k < FILE_EXTS.len() && equal(FILE_EXTS[k].as_bytes(), word) {
            flags |= F_FILE_EXT;
            k += 1;
        }
        assert!(!word.is_empty() && word.len() <= MAX_LOOKUP_BYTES);
        let mut shared = 0;
        if entries % BLOCK == 0 {
            if entries / BLOCK < block_start.len() {
                block_start[entries / BLOCK] = pos as u16;
            }
        } else {
            while shared < word.len() && shared < prev.len() && word[shared] == prev[shared] {
                shared += 1;
            }
        }
        let mut set = 0;
        while set < sets && seen_sets[set] != flags {
            set += 1;
        }
        if set == sets {
            assert!(sets < seen_sets.len());
            seen_sets[sets] = flags;
            if sets < flag_sets.len() {
                flag_sets[sets] = flags;
            }
            sets += 1;
        }
        assert!(pos + 2 + word.len() < 1 << 16);
        put(bytes, pos, shared as u8);
        pos += 1;
        while shared < word.len() {
            assert!(word[shared] < TERMINATOR);
            put(bytes, pos, word[shared]);
            pos += 1;
            shared += 1;
        }
        put(bytes, pos, TERMINATOR | set as u8);
        pos += 1;
        entries += 1;
        prev = word;
    }
    [pos, entries.div_ceil(BLOCK), sets]
}

const fn put(bytes: &mut [u8], pos: usize, b: u8) {
    if pos < bytes.len() {
        bytes[pos] = b;
    }
}

const fn less(a: &[u8], b: &[u8]) -> bool {
    let mut n = 0;
    while n < a.len() && n < b.len() {
        if a[n] != b[n] {
            return a[n] < b[n];
        }
        n += 1;
    }
    a.len() < b.len()
}

const fn equal(a: &[u8], b: &[u8]) -> bool {
    !less(a, b) && !less(b, a)
}
