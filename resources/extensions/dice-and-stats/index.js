/* global spindle */
// Dice and Stats: rolls dice in standard notation and computes the odds of a result (read-only tools).
import { randomInt } from 'node:crypto';

const MAX_TERMS = 10;
const MAX_COUNT = 100;
const MAX_SIDES = 1000;
const MAX_CONSTANT = 10000;
const EXACT_BUDGET = 5e7;
const MAX_SAMPLES = 200000;

function fail(message, hint) {
  return Object.assign(new Error(message), { code: 'INVALID_NOTATION', hint });
}

/**
 * Parses "2d6+3", "4d6kh3", "d%", "3d8-1d4+2". Returns [{ sign, kind: 'dice', count, sides, keep } | { sign, kind: 'flat', value }].
 * keep: { mode: 'h' | 'l', n } keeps the n highest or lowest dice.
 */
function parse(notation) {
  if (typeof notation !== 'string' || notation.trim() === '') throw fail('Dice notation is empty.', 'Use e.g. "2d6+3" or "4d6kh3".');
  const text = notation.toLowerCase().replace(/\s+/g, '');
  if (text.length > 100) throw fail('Dice notation is too long.', 'Keep it under 100 characters.');
  const terms = [];
  const re = /([+-]?)(?:(\d*)d(\d+|%)(?:(kh|kl|dh|dl|k)(\d+))?|(\d+))/gy;
  let match;
  while (re.lastIndex < text.length) {
    const start = re.lastIndex;
    match = re.exec(text);
    if (!match || match.index !== start || (start > 0 && !match[1])) {
      throw fail(`Cannot read "${notation}" at "${text.slice(start)}".`, 'Use terms like 2d6, 4d6kh3, d%, or a number, joined by + or -.');
    }
    const sign = match[1] === '-' ? -1 : 1;
    if (match[6] !== undefined) {
      const value = Number(match[6]);
      if (value > MAX_CONSTANT) throw fail(`The constant ${value} is too large.`, `Use at most ${MAX_CONSTANT}.`);
      terms.push({ sign, kind: 'flat', value });
    } else {
      const count = match[2] === '' ? 1 : Number(match[2]);
      const sides = match[3] === '%' ? 100 : Number(match[3]);
      if (count < 1 || count > MAX_COUNT) throw fail(`Roll between 1 and ${MAX_COUNT} dice per term.`);
      if (sides < 2 || sides > MAX_SIDES) throw fail(`Dice need between 2 and ${MAX_SIDES} sides.`);
      let keep = null;
      if (match[4]) {
        const n = Number(match[5]);
        const mode = match[4];
        const kept = mode === 'dh' || mode === 'dl' ? count - n : n;
        if (kept < 1 || kept > count) throw fail(`Cannot keep ${kept} of ${count} dice.`);
        keep = { mode: mode === 'kl' || mode === 'dh' ? 'l' : 'h', n: kept };
      }
      terms.push({ sign, kind: 'dice', count, sides, keep });
    }
    if (terms.length > MAX_TERMS) throw fail(`Use at most ${MAX_TERMS} terms.`);
  }
  return terms;
}

function keptDice(rolls, keep) {
  if (!keep) return { kept: rolls, dropped: [] };
  const order = rolls.map((value, index) => ({ value, index })).sort((a, b) => (keep.mode === 'h' ? b.value - a.value : a.value - b.value));
  const keptIdx = new Set(order.slice(0, keep.n).map((o) => o.index));
  return { kept: rolls.filter((_, i) => keptIdx.has(i)), dropped: rolls.filter((_, i) => !keptIdx.has(i)) };
}

const cryptoDie = (sides) => randomInt(1, sides + 1);
const fastDie = (sides) => 1 + Math.floor(Math.random() * sides);

function rollOnce(terms, die = cryptoDie) {
  let total = 0;
  const parts = [];
  for (const term of terms) {
    const sign = term.sign < 0 ? '- ' : parts.length ? '+ ' : '';
    if (term.kind === 'flat') {
      total += term.sign * term.value;
      parts.push(`${sign}${term.value}`);
      continue;
    }
    const rolls = Array.from({ length: term.count }, () => die(term.sides));
    const { kept, dropped } = keptDice(rolls, term.keep);
    total += term.sign * kept.reduce((a, b) => a + b, 0);
    parts.push(`${sign}[${kept.join(', ')}]${dropped.length ? ` (dropped ${dropped.join(', ')})` : ''}`);
  }
  return { total, text: `${parts.join(' ')} = ${total}` };
}

// ---- distributions: Map-free arrays { min, probs } ----

function convolve(a, b) {
  const probs = new Array(a.probs.length + b.probs.length - 1).fill(0);
  for (let i = 0; i < a.probs.length; i++) {
    if (a.probs[i] === 0) continue;
    for (let j = 0; j < b.probs.length; j++) probs[i + j] += a.probs[i] * b.probs[j];
  }
  return { min: a.min + b.min, probs };
}

function negate(d) {
  return { min: -(d.min + d.probs.length - 1), probs: [...d.probs].reverse() };
}

function termCost(term) {
  if (term.kind === 'flat') return 1;
  if (term.keep) return term.sides ** term.count;
  return (term.count * term.sides) ** 2;
}

function termDistribution(term) {
  if (term.kind === 'flat') return { min: term.value, probs: [1] };
  const die = { min: 1, probs: new Array(term.sides).fill(1 / term.sides) };
  if (!term.keep) {
    let d = die;
    for (let i = 1; i < term.count; i++) d = convolve(d, die);
    return d;
  }
  // Enumerate every outcome (only when small enough).
  const counts = new Map();
  const rolls = new Array(term.count).fill(1);
  const total = term.sides ** term.count;
  for (let n = 0; n < total; n++) {
    const sum = keptDice(rolls, term.keep).kept.reduce((a, b) => a + b, 0);
    counts.set(sum, (counts.get(sum) ?? 0) + 1);
    for (let i = 0; i < rolls.length; i++) {
      if (rolls[i] < term.sides) {
        rolls[i]++;
        break;
      }
      rolls[i] = 1;
    }
  }
  const min = Math.min(...counts.keys());
  const max = Math.max(...counts.keys());
  const probs = new Array(max - min + 1).fill(0);
  for (const [sum, c] of counts) probs[sum - min] = c / total;
  return { min, probs };
}

function distribution(terms) {
  if (terms.reduce((cost, t) => cost + termCost(t), 0) > EXACT_BUDGET) return null;
  let d = { min: 0, probs: [1] };
  for (const term of terms) {
    const td = termDistribution(term);
    d = convolve(d, term.sign < 0 ? negate(td) : td);
  }
  return d;
}

function sampleCount(terms) {
  const dice = terms.reduce((n, t) => n + (t.kind === 'dice' ? t.count : 0), 0);
  return Math.max(10000, Math.min(MAX_SAMPLES, Math.floor(4e6 / Math.max(1, dice))));
}

function sampledDistribution(terms) {
  const counts = new Map();
  const samples = sampleCount(terms);
  for (let i = 0; i < samples; i++) {
    const total = rollOnce(terms, fastDie).total;
    counts.set(total, (counts.get(total) ?? 0) + 1);
  }
  const min = Math.min(...counts.keys());
  const probs = new Array(Math.max(...counts.keys()) - min + 1).fill(0);
  for (const [total, c] of counts) probs[total - min] = c / samples;
  return { min, probs };
}

const COMPARISONS = {
  at_least: { symbol: '≥', test: (v, t) => v >= t },
  at_most: { symbol: '≤', test: (v, t) => v <= t },
  exactly: { symbol: '=', test: (v, t) => v === t },
};

function odds(args) {
  const terms = parse(args.notation);
  const target = Number(args.target);
  if (!Number.isFinite(target)) throw fail('"target" must be a number.', 'For example {"notation": "1d20+5", "target": 15}.');
  const comparison = COMPARISONS[args.comparison ?? 'at_least'];
  if (!comparison) throw fail(`Unknown comparison "${args.comparison}".`, 'Use at_least, at_most or exactly.');
  const exact = distribution(terms);
  const d = exact ?? sampledDistribution(terms);
  let p = 0;
  let mean = 0;
  let variance = 0;
  d.probs.forEach((q, i) => {
    const v = d.min + i;
    if (comparison.test(v, target)) p += q;
    mean += v * q;
  });
  d.probs.forEach((q, i) => (variance += (d.min + i - mean) ** 2 * q));
  let lo = d.min;
  while (d.probs[lo - d.min] === 0) lo++;
  let hi = d.min + d.probs.length - 1;
  while (d.probs[hi - d.min] === 0) hi--;
  const method = exact ? 'exact' : `estimated from ${sampleCount(terms).toLocaleString('en')} simulated rolls`;
  return (
    `P(${args.notation.replace(/\s+/g, '')} ${comparison.symbol} ${target}) = ${(p * 100).toFixed(2)}% (${method}).\n` +
    `Average ${mean.toFixed(2)}, standard deviation ${Math.sqrt(variance).toFixed(2)}, range ${lo} to ${hi}.`
  );
}

function roll(args, councilMember) {
  const terms = parse(args.notation);
  const times = Math.max(1, Math.min(20, Math.floor(Number(args.times ?? 1) || 1)));
  const notation = args.notation.replace(/\s+/g, '');
  const lines = Array.from({ length: times }, (_, i) => `${times > 1 ? `#${i + 1}: ` : ''}${rollOnce(terms).text}`);
  const label = typeof args.label === 'string' && args.label.trim() ? ` for ${args.label.trim().slice(0, 100)}` : '';
  const who = councilMember ? `${councilMember.name} rolls` : 'Rolled';
  return `${who} ${notation}${label}:\n${lines.join('\n')}`;
}

spindle.registerTool({
  name: 'roll_dice',
  display_name: 'Roll Dice',
  description:
    'Rolls dice in standard notation and shows each die: "2d6+3", "1d20-1", "4d6kh3" (keep highest 3), "2d20kl1" (disadvantage), "d%" (percentile), "3d8+1d6+2".',
  parameters: {
    type: 'object',
    properties: {
      notation: { type: 'string', description: 'Dice notation, e.g. 2d6+3 or 4d6kh3', maxLength: 100 },
      times: { type: 'integer', description: 'Roll the expression this many times (1-20)', default: 1, minimum: 1, maximum: 20 },
      label: { type: 'string', description: 'What the roll is for, e.g. "stealth check"', maxLength: 100 },
    },
    required: ['notation'],
  },
  council_eligible: true,
  mode: 'read',
});

spindle.registerTool({
  name: 'dice_odds',
  display_name: 'Dice Odds',
  description:
    'Computes the chance that a dice expression meets a target (at least, at most or exactly), with its average, spread and range. Use before a risky action to weigh the odds.',
  parameters: {
    type: 'object',
    properties: {
      notation: { type: 'string', description: 'Dice notation, e.g. 1d20+5 or 2d6', maxLength: 100 },
      target: { type: 'number', description: 'The number to compare against, e.g. a difficulty class' },
      comparison: { type: 'string', enum: ['at_least', 'at_most', 'exactly'], default: 'at_least' },
    },
    required: ['notation', 'target'],
  },
  council_eligible: true,
  mode: 'read',
});

spindle.on('TOOL_INVOCATION', async (payload) => {
  const { toolName, args, councilMember } = payload;
  if (toolName === 'roll_dice') return roll(args, councilMember);
  if (toolName === 'dice_odds') return odds(args);
  return 'Unknown tool';
});
