// Regex scripts at work (regex-apply.ts on the pattern thread): a display pass over the 20 messages a window shows, a
// prompt pass over a 1,000-message history, and a rule that backtracks without end, each with three published-style
// rules — beside the same rules run with String.prototype.replace on the host's own thread: the time each takes and
// the longest the host's thread is held.
import { applyRegexScripts, type RegexText } from '../../electron/core/regex/regex-apply';
import { newScript } from '../../electron/core/regex/regex-script';
import { REGEX_PASS_TIMEOUT_MS, RegexSandbox } from '../../electron/core/regex/regex-sandbox';
import type { RegexScript } from '../../shared/types/regex-script';
import { holds } from './sessions';
import { median, round, table } from './stats';

const ROUNDS = 7;
const RULES: RegexScript[] = [
  newScript({ name: 'Hide voice cues', find_regex: '\\[voice:[^\\]\\r\\n]{1,80}\\]\\s?', flags: 'gi', placement: ['ai_output'] }, 'r1', 'x', 0),
  newScript({ name: 'OOC out', find_regex: '\\(OOC:[^)]*\\)\\s?', flags: 'g', placement: ['user_input', 'ai_output'], min_depth: 1 }, 'r2', 'x', 0),
  newScript({ name: 'Bold names', find_regex: '\\b(Mira|Ada)\\b', replace_string: '**$1**', flags: 'g', placement: ['ai_output'] }, 'r3', 'x', 0),
];
const HOSTILE = newScript({ name: 'Backtracks', find_regex: '(a+)+$', replace_string: 'x', placement: ['ai_output'] }, 'r4', 'x', 0);

function messages(count: number): RegexText[] {
  return Array.from({ length: count }, (_, i) => ({
    text: i % 2 ? `Mira answers [voice: low] at length. ${'The lamp burns on through the storm, and the sea keeps its counsel. '.repeat(6)}(OOC: fine)` : `(OOC: short please) Ada asks question ${i}.`,
    placement: i % 2 ? 'ai_output' : 'user_input',
    depth: count - 1 - i,
  }));
}

/** The same rules with String.prototype.replace on this thread (placements and depths as the pass has them). */
async function inPlace(rules: RegexScript[], items: RegexText[]): Promise<string[]> {
  const texts = items.map((i) => i.text);
  for (const rule of rules) {
    const re = new RegExp(rule.find_regex, rule.flags);
    items.forEach((item, i) => {
      if (rule.placement.includes(item.placement) && (rule.min_depth === null || (item.depth ?? 0) >= rule.min_depth)) texts[i] = texts[i]!.replace(re, rule.replace_string);
    });
  }
  return texts;
}

async function measure(work: () => Promise<unknown>, rounds = ROUNDS): Promise<{ total: number; turn: number }> {
  await work();
  const totals: number[] = [];
  const turns: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    turns.push((await holds(work)).at(-1)!);
    totals.push(performance.now() - started);
  }
  return { total: median(totals), turn: median(turns) };
}

export async function regexBenchmark(opts: { json: boolean }): Promise<unknown> {
  const sandbox = new RegexSandbox();
  const rows: Array<Record<string, string | number>> = [];
  const figure = (v: { total: number; turn: number }) => `${round(v.total, 2)} ms, turn ${round(v.turn, 2)} ms`;
  const row = (what: string, value: { total: number; turn: number }, baseline: string, target: string, met: boolean) => rows.push({ measure: what, value: figure(value), baseline, target, met: met ? 'yes' : 'no' });
  try {
    for (const [what, count] of [['display pass, the 20 messages a window shows', 20], ['prompt pass, a 1,000-message history', 1000]] as const) {
      const items = messages(count);
      const threaded = await measure(() => applyRegexScripts(sandbox, RULES, items));
      const here = await measure(() => inPlace(RULES, items));
      row(`${what}, 3 rules`, threaded, `${figure(here)} (String.replace on the host's thread)`, "the host's thread held a few ms at most", threaded.turn <= 5);
    }
    const hostile: RegexText[] = [{ text: `${'a'.repeat(32)}!`, placement: 'ai_output' }, ...messages(20)];
    const skipped = await measure(() => applyRegexScripts(sandbox, [HOSTILE, ...RULES], hostile), 3);
    const alone = `${'a'.repeat(24)}!`;
    const started = performance.now();
    alone.replace(new RegExp(HOSTILE.find_regex), 'x');
    const inline = performance.now() - started;
    row(
      'a rule that backtracks without end (32 a\'s and "!"), then 3 rules over 20 messages',
      skipped,
      `24 a's alone with String.replace on the host's thread: ${round(inline, 1)} ms, all of it one turn (each a more doubles it)`,
      // The pattern's thread takes one of two cores for its second: the host's turns stretch a little, never to the limit.
      `skipped at its limit (${REGEX_PASS_TIMEOUT_MS} ms); no turn of the host's near it (under a tenth)`,
      skipped.turn < REGEX_PASS_TIMEOUT_MS / 10,
    );
  } finally {
    await sandbox.close();
  }
  if (!opts.json) console.log(table(rows));
  return { rounds: ROUNDS, rows };
}
