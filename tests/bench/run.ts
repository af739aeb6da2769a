// `npm run bench -- <name> [--json] [--node=N]`: runs one benchmark (or all) and prints figures beside their baselines.
import os from 'node:os';
import { invokeBenchmark } from './invoke';
import { councilBenchmark } from './council';
import { streamBenchmark } from './stream';
import { extensionsBenchmark } from './extensions';
import { pipelineBenchmark } from './pipeline';
import { renderBenchmark } from './render';
import { cliBenchmark } from './cli';
import { startBenchmark } from './start';
import { firstReplyBenchmark } from './first-reply';
import { localBenchmark } from './local';
import { sessionsBenchmark } from './sessions';
import { chatWindowBenchmark } from './chat-window';
import { recallBenchmark } from './recall';
import { regexBenchmark } from './regex';
import { stealMeter } from './cpu-steal';

const benchmarks: Record<string, (opts: { json: boolean }) => Promise<unknown>> = {
  invoke: invokeBenchmark,
  council: councilBenchmark,
  stream: streamBenchmark,
  extensions: extensionsBenchmark,
  pipeline: pipelineBenchmark,
  render: renderBenchmark,
  cli: cliBenchmark,
  start: startBenchmark,
  'first-reply': firstReplyBenchmark,
  local: localBenchmark,
  sessions: sessionsBenchmark,
  'chat-window': chatWindowBenchmark,
  recall: recallBenchmark,
  regex: regexBenchmark,
};

const args = process.argv.slice(2);
const json = args.includes('--json');
const names = args.filter((a) => !a.startsWith('-'));
// `--node=N` (bench:node24): npx falls back to the PATH's Node when it cannot install the one asked for; refuse to measure there.
const wantedNode = args.find((a) => a.startsWith('--node='))?.slice('--node='.length);
if (wantedNode !== undefined && process.versions.node.split('.')[0] !== wantedNode) {
  console.error(`These benchmarks were asked to run on Node ${wantedNode}, but this is Node ${process.version}: npx could not install it (see its output above).`);
  process.exit(2);
}
const selected = names.length ? names : Object.keys(benchmarks);
const unknown = selected.filter((n) => !benchmarks[n]);
if (unknown.length) {
  console.error(`Unknown benchmark: ${unknown.join(', ')}. Available: ${Object.keys(benchmarks).join(', ')}`);
  process.exit(2);
}

// Per-call costs depend on the runtime (an AbortController takes ~40× longer to make on Node 20 than on Node 24, Electron 41's line).
if (!json) console.log(`Node ${process.version}, ${os.availableParallelism()} cores`);
const results: Record<string, unknown> = {};
for (const name of selected) {
  if (!json) console.log(`\n# ${name}`);
  const stolen = stealMeter();
  results[name] = await benchmarks[name]!({ json });
  const share = stolen();
  if (!json && share !== null) {
    const pct = Math.round(share * 100);
    console.log(`\nCPU time taken by other guests of this VM's host (steal): ${pct}% of what this benchmark asked for${pct >= 5 ? '; its figures are skewed by it, run it again when the host is quieter' : ''}.`);
  }
}
if (json) console.log(JSON.stringify(selected.length === 1 ? results[selected[0]!] : results));
process.exit(0);
