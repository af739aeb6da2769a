// `models …`: the local model library — add a GGUF on disk, list, remove.
import { HostFailure } from '../../../shared/errors';
import { fileSize } from '../../../shared/file-size';
import type { HostEvent } from '../../../shared/contract/events';
import { describeFit } from '../../../shared/local-model/describe-fit';
import type { ModelFit } from '../../../shared/local-model/engine-contract';
import type { CatalogEntry, LocalModelInfo, ModelDownload, ProbeCard } from '../../../shared/types/local-models';
import { callHost, positional, type CliCommand } from './command';


const seconds = (s: number) => (s >= 3600 ? `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min` : s >= 60 ? `${Math.floor(s / 60)} min ${s % 60} s` : `${s} s`);

/** One progress line: how much, how fast, how long still. */
export function progressLine(d: ModelDownload): string {
  const total = d.totalBytes ? ` of ${fileSize(d.totalBytes)} (${Math.floor((d.bytesDone / d.totalBytes) * 100)}%)` : '';
  const rest = d.secondsLeft !== null && d.state === 'running' ? `, ${seconds(d.secondsLeft)} left` : '';
  return `${fileSize(d.bytesDone)}${total} at ${fileSize(d.bytesPerSecond)}/s${rest}`;
}

const share = (t: { passed: number; of: number }) => `${t.passed}/${t.of}${t.of ? ` (${Math.round((t.passed / t.of) * 100)}%)` : ''}`;

/** A capability card in one paragraph, then each failed case. */
export function describeProbe(card: ProbeCard): string {
  const head = `Tool calling on ${card.connectionId} (${card.model}): valid calls ${share(card.validCalls)}, restraint ${share(card.restraint)}, follow-up turns ${share(card.followUp)}; mean latency ${card.meanLatencyMs} ms, ${card.tokensPerSecond} tokens/s.`;
  return [head, ...card.failures.map((f) => `  ${f.id} (${f.kind}): ${f.why}`)].join('\n');
}

const PROBE_USAGE = 'models probe <connectionId> [--model M] [--max-tokens N]';

const PULL_USAGE = 'models pull <url|hf:owner/repo/file.gguf> [--sha256 HEX]';

const describe = (m: LocalModelInfo) =>
  `${m.id}  ${m.name} [${m.architecture}] ${fileSize(m.sizeBytes)}${m.contextLength ? `  context ${m.contextLength}` : ''}  ${m.file}${m.missing ? '  MISSING' : ''}`;


export const modelCommands: CliCommand[] = [
  {
    words: ['models', 'list'],
    usage: 'models list',
    dataOnly: true,
    summary: 'The local models the built-in engine can run.',
    run: ({ host }) => callHost(host, 'models.list', {}),
    format(value) {
      const list = value as LocalModelInfo[];
      return list.length ? list.map(describe).join('\n') : 'No local models. Add a GGUF with: npm run cli -- models add <file.gguf>';
    },
  },
  {
    words: ['models', 'add'],
    usage: 'models add <file.gguf>',
    dataOnly: true,
    summary: 'Adds a GGUF on disk to the local models (used where it is); then: connections add --type local --model <id>.',
    run: (ctx) => callHost(ctx.host, 'models.add', { path: positional(ctx, 0, 'file', 'models add <file.gguf>') }),
    format: (value) => `Added ${describe(value as LocalModelInfo)}\nUse it: npm run cli -- connections add --type local --model ${(value as LocalModelInfo).id}`,
  },
  {
    words: ['models', 'pull'],
    usage: PULL_USAGE,
    dataOnly: true,
    summary: 'Downloads a GGUF into the local models, with progress; an interrupted pull resumes where it stopped. HF_ENDPOINT names a Hugging Face mirror.',
    flags: { sha256: { type: 'string' } },
    async run(ctx) {
      const source = positional(ctx, 0, 'source', PULL_USAGE);
      const sha256 = typeof ctx.flags.sha256 === 'string' ? ctx.flags.sha256 : undefined;
      let last = '';
      const off = ctx.host.onEvent((event: HostEvent) => {
        if (event.type !== 'models.download' || event.download.source !== source || event.download.state !== 'running') return;
        const line = progressLine(event.download);
        if (line !== last) ctx.progress((last = line));
      });
      try {
        const ended = await callHost(ctx.host, 'models.pull', { source, ...(sha256 ? { sha256 } : {}), wait: true });
        if (ended.state === 'failed' && ended.error) throw new HostFailure(ended.error);
        if (ended.state !== 'done') throw new HostFailure({ code: 'CANCELLED', message: 'The download stopped; run the same command again to resume it.' });
        return (await callHost(ctx.host, 'models.list', {})).find((m) => m.id === ended.modelId);
      } finally {
        off();
      }
    },
    format: (value) => `Downloaded ${describe(value as LocalModelInfo)}\nUse it: npm run cli -- connections add --type local --model ${(value as LocalModelInfo).id}`,
  },
  {
    words: ['models', 'suggested'],
    usage: 'models suggested',
    dataOnly: true,
    summary: 'Small models that call tools well: size, licence, context, and the source to pull.',
    run: ({ host }) => callHost(host, 'models.suggested', {}),
    format: (value) =>
      (value as CatalogEntry[]).map((m) => `${m.name} — ${fileSize(m.sizeBytes)}, ${m.licence}, context ${m.contextLength}\n  ${m.toolCalling}\n  npm run cli -- models pull ${m.source}`).join('\n'),
  },
  {
    words: ['models', 'fit'],
    usage: 'models fit <file.gguf|url|hf:owner/repo/file.gguf>',
    dataOnly: true,
    summary: 'Whether a model fits this machine — on the GPU, on the CPU, or not at all — and the memory it needs, from its header alone (nothing is downloaded).',
    run: (ctx) => callHost(ctx.host, 'models.fit', { source: positional(ctx, 0, 'source', 'models fit <file.gguf|url|hf:owner/repo/file.gguf>') }),
    format: (value) => describeFit(value as ModelFit),
  },
  {
    words: ['models', 'probe'],
    usage: PROBE_USAGE,
    dataOnly: true,
    summary: "Runs the tool-calling probe (20 cases: single calls, choosing a tool, nested arguments, restraint, follow-up turns) on any connection and keeps its capability card.",
    flags: { model: { type: 'string' }, 'max-tokens': { type: 'string' } },
    async run(ctx) {
      const connectionId = positional(ctx, 0, 'connectionId', PROBE_USAGE);
      const off = ctx.host.onEvent((event: HostEvent) => {
        if (event.type === 'models.probe' && event.connectionId === connectionId) ctx.progress(`case ${event.done} of ${event.total}`);
      });
      try {
        const maxTokens = typeof ctx.flags['max-tokens'] === 'string' ? Number(ctx.flags['max-tokens']) : undefined;
        return await callHost(ctx.host, 'models.probe', { connectionId, ...(typeof ctx.flags.model === 'string' ? { model: ctx.flags.model } : {}), ...(maxTokens !== undefined ? { maxTokens } : {}) });
      } finally {
        off();
      }
    },
    format: (value) => describeProbe(value as ProbeCard),
  },
  {
    words: ['models', 'remove'],
    usage: 'models remove <id>',
    dataOnly: true,
    summary: 'Removes a local model (a file it downloaded is deleted; a file you picked stays on disk).',
    run: (ctx) => callHost(ctx.host, 'models.remove', { id: positional(ctx, 0, 'id', 'models remove <id>') }),
    format(value) {
      const { removed, deletedFile } = value as { removed: LocalModelInfo; deletedFile: boolean };
      return `Removed ${removed.id}${deletedFile ? ` and deleted ${removed.file}` : ` (${removed.file} stays on disk)`}`;
    },
  },
];
