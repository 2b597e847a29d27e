// The demo's built-in "LLM" (no key needed): deterministic rules, not a language model.
//
// Told something, it produces the entities the message names and says what it will remember:
//   - "Project X" (a capitalised word after "Project") is a project (status "active");
//   - a capitalised name ending in Labs, Inc, Corp, Ltd, LLC or GmbH is a company;
//   - a two-word capitalised name after "colleague", "met", "with" or "from", or before
//     "at <company>", is a person, with that company as `organization`;
//   - an e-mail address right after a person's name ("Dana Whitfield (dana@orbital.example)",
//     "Dana Whitfield, dana@…", "Dana Whitfield at dana@…") becomes that person's `email`;
//   - "<person> is leading / leads / runs / manages <Project X>" becomes the person's `role`
//     ("leading Project Kestrel") and the project's `owner`.
// Asked something (a "?", or "what/who/tell me …"), it answers from the retrieved entities'
// fields only: "Dana Whitfield: person, at Orbital Labs, leading Project Kestrel." Field names
// are the real server's (person: name, email, organization, role; company: name; project: name,
// status, owner), so every field survives in the snapshot.

const COMPANY_SUFFIXES = ['Labs', 'Inc', 'Corp', 'Ltd', 'LLC', 'GmbH'];
const PERSON_CUES = ['colleague', 'met', 'with', 'from'];
const LEAD_VERBS = ['is leading', 'leads', 'runs', 'is running', 'manages', 'is managing'];

const CAP = "[A-Z][a-zA-Z'’-]+";
const PROJECT = new RegExp(`\\bProject (${CAP})`, 'g');
const COMPANY = new RegExp(`\\b((?:${CAP} ){0,2}${CAP} (?:${COMPANY_SUFFIXES.join('|')}))\\b\\.?`, 'g');
const PERSON_AFTER_CUE = new RegExp(`\\b(?:${PERSON_CUES.join('|')}) (${CAP} ${CAP})\\b`, 'g');
const PERSON_BEFORE_AT = new RegExp(`\\b(${CAP} ${CAP}) at ((?:${CAP} ){0,2}${CAP} (?:${COMPANY_SUFFIXES.join('|')}))\\b`, 'g');
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;

/** Whether the message asks rather than tells. */
export function isQuestion(message) {
  return /\?\s*$/.test(message) || /^\s*(what|who|where|when|which|tell me|do you)\b/i.test(message);
}

/** The entities a message names, by the rules above, in the order they are first named. */
export function entitiesIn(message) {
  const companies = new Map();
  for (const [, name] of message.matchAll(COMPANY)) {
    if (!name.startsWith('Project ')) companies.set(name, { entity_type: 'company', name });
  }
  const projects = new Map();
  for (const [whole] of message.matchAll(PROJECT)) {
    projects.set(whole, { entity_type: 'project', name: whole, status: 'active' });
  }
  const people = new Map();
  const person = (name) => {
    const [first] = name.split(' ');
    // "With Project", "from Orbital Labs": a cue before something that is not a person
    if (first === 'Project' || companies.has(name) || [...companies.keys()].some((c) => c.startsWith(name))) return null;
    if (!people.has(name)) people.set(name, { entity_type: 'person', name });
    return people.get(name);
  };
  for (const [, name, company] of message.matchAll(PERSON_BEFORE_AT)) {
    const p = person(name);
    if (p) p.organization = company;
  }
  for (const [, name] of message.matchAll(PERSON_AFTER_CUE)) person(name);
  for (const [name, p] of people) {
    const after = message.slice(message.indexOf(name) + name.length);
    const email = after.match(new RegExp(`^\\s*(?:\\(|,|at|<)?\\s*(${EMAIL.source})`));
    if (email) p.email = email[1];
    for (const verb of LEAD_VERBS) {
      const led = after.match(new RegExp(`^(?:\\s+at ${CAP}(?: ${CAP}){0,2})?[^.?!]*?\\b${verb} (Project ${CAP})`));
      if (led) {
        p.role = `leading ${led[1]}`;
        const project = projects.get(led[1]);
        if (project) project.owner = name;
        break;
      }
    }
  }
  // people first (who the message is about), then companies, then projects
  return [...people.values(), ...companies.values(), ...projects.values()];
}

/** One retrieved entity in words: "Dana Whitfield: person, at Orbital Labs, leading …". */
export function describe(entity) {
  const s = entity.snapshot ?? {};
  const name = s.name ?? s.title ?? entity.canonical_name ?? entity.id;
  const facts = [entity.entity_type];
  if (s.organization) facts.push(`at ${s.organization}`);
  if (s.role) facts.push(s.role);
  if (s.email) facts.push(s.email);
  if (entity.entity_type === 'project') {
    if (s.status) facts.push(s.status);
    if (s.owner) facts.push(`led by ${s.owner}`);
  }
  return `${name}: ${facts.join(', ')}`;
}

function list(items) {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** The reply and the entities it produces, for one message. */
export function respond(message, ctx) {
  if (isQuestion(message)) {
    if (ctx.retrieved.length === 0) return { text: "I don't know anything about that yet. Tell me and I'll remember it." };
    return { text: `${ctx.retrieved.map(describe).join('. ')}.` };
  }
  const entities = entitiesIn(message);
  if (entities.length === 0) return { text: 'Noted. (I remember people, companies and projects you name.)' };
  const named = entities.map((e) => `${e.name} (${e.entity_type}${e.organization ? `, at ${e.organization}` : ''})`);
  return { text: `I'll remember ${list(named)}.`, entities };
}

/** The LLM callback: the reply streamed a few words at a time, its entities with it. */
export function localResponder(message, ctx) {
  const { text, entities } = respond(message, ctx);
  async function* stream() {
    for (const words of text.match(/(?:\S+\s*){1,3}/g) ?? ['']) {
      yield words;
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
  }
  return entities ? { stream: stream(), entities } : stream();
}
