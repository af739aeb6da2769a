// `connections …` and `sidecar set`: add a profile (keys only by env reference), list, test, list models; choose the sidecar.
import { HostFailure } from '../../../shared/errors';
import { DEFAULT_BASE_URLS, LLM_PROVIDERS, type ConnectionProfileView, type LlmProvider } from '../../../shared/types/llm';
import { callHost, type CliCommand, type CliContext } from './command';

function str(ctx: CliContext, flag: string): string | undefined {
  const value = ctx.flags[flag];
  return typeof value === 'string' ? value : undefined;
}

function required(ctx: CliContext, flag: string, usage: string): string {
  const value = str(ctx, flag);
  if (!value) throw new HostFailure({ code: 'INVALID_INPUT', message: `Missing --${flag}. Usage: ${usage}`, path: `--${flag}` });
  return value;
}

function idArg(ctx: CliContext, usage: string): string {
  const id = ctx.positionals[0];
  if (!id) throw new HostFailure({ code: 'INVALID_INPUT', message: `Missing <id>. Usage: ${usage}`, path: 'id' });
  return id;
}

function num(ctx: CliContext, flag: string): number | undefined {
  const value = str(ctx, flag);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) throw new HostFailure({ code: 'INVALID_INPUT', message: `--${flag} must be a number.`, path: `--${flag}` });
  return n;
}

const describe = (p: ConnectionProfileView) =>
  `${p.id}  ${p.name} [${p.provider}] ${p.baseUrl}${p.defaultModel ? `  model ${p.defaultModel}` : ''}${p.imageModel ? `  images ${p.imageModel}` : ''}  key: ${
    p.keyRef?.kind === 'env' ? `env ${p.keyRef.name}${p.hasKey ? '' : ' (not set)'}` : p.hasKey ? `stored …${p.keyHint ?? ''}` : 'none'
  }${p.held ? `  HELD (${p.held}): connections confirm ${p.id}` : ''}`;

const ADD_USAGE = 'connections add --type <type> --base-url <url> [--model M] [--image-model M] [--key-env VAR] [--name N]  (a local model: --type local --model <modelId>)';
const SIDECAR_USAGE = 'sidecar set --connection <id> --model <m> [--temperature T] [--top-p P] [--max-tokens N]';

export const connectionCommands: CliCommand[] = [
  {
    words: ['connections', 'add'],
    usage: ADD_USAGE,
    dataOnly: true,
    summary: `Add an LLM connection (${LLM_PROVIDERS.join(', ')}); the key is read from the named environment variable at call time.`,
    flags: { type: { type: 'string' }, 'base-url': { type: 'string' }, model: { type: 'string' }, 'image-model': { type: 'string' }, 'key-env': { type: 'string' }, name: { type: 'string' } },
    async run(ctx) {
      const type = required(ctx, 'type', ADD_USAGE);
      if (!(LLM_PROVIDERS as readonly string[]).includes(type)) {
        throw new HostFailure({ code: 'INVALID_INPUT', message: `Unknown --type "${type}"; expected one of: ${LLM_PROVIDERS.join(', ')}.`, path: '--type' });
      }
      // A local model has no address: the model is its library id (models list).
      const baseUrl = type === 'local' ? (str(ctx, 'base-url') ?? DEFAULT_BASE_URLS.local) : required(ctx, 'base-url', ADD_USAGE);
      if (type === 'local') required(ctx, 'model', ADD_USAGE);
      const keyEnv = str(ctx, 'key-env');
      const result = await callHost(ctx.host, 'connections.save', {
        profile: {
          name: str(ctx, 'name') ?? (type === 'local' ? `Local ${str(ctx, 'model')}` : `${type} ${baseUrl.replace(/^https?:\/\//, '')}`).slice(0, 100),
          provider: type as LlmProvider,
          baseUrl,
          ...(str(ctx, 'model') ? { defaultModel: str(ctx, 'model')! } : {}),
          // Images for extensions (spindle.imageGen), through an openai or openai-compatible connection's Images API.
          ...(str(ctx, 'image-model') ? { imageModel: str(ctx, 'image-model')! } : {}),
          ...(keyEnv ? { keyRef: { kind: 'env' as const, name: keyEnv } } : {}),
        },
      });
      for (const warning of result.warnings) ctx.progress(`Warning: ${warning}`);
      return result.profile;
    },
    format: (value) => `Added ${describe(value as ConnectionProfileView)}`,
  },
  {
    words: ['connections', 'list'],
    usage: 'connections list',
    dataOnly: true,
    summary: 'Every connection profile (keys are never shown; a hint of the last 4 characters at most).',
    run: ({ host }) => callHost(host, 'connections.list', {}),
    format(value) {
      const list = value as ConnectionProfileView[];
      return list.length ? list.map(describe).join('\n') : 'No connections. Add one with: npm run cli -- connections add …';
    },
  },
  {
    words: ['connections', 'test'],
    usage: 'connections test <id>',
    dataOnly: true,
    summary: 'Check that a connection answers (lists its models).',
    async run(ctx) {
      const result = await callHost(ctx.host, 'connections.test', { id: idArg(ctx, 'connections test <id>') });
      if (!result.ok && result.error) throw new HostFailure(result.error);
      return result;
    },
    format: (value) => `OK: ${(value as { models: string[] }).models.length} models`,
  },
  {
    words: ['connections', 'confirm'],
    usage: 'connections confirm <id>',
    dataOnly: true,
    summary: 'Take into use a connection a backup restore held (new, or its address changed); add its key again after.',
    run: (ctx) => callHost(ctx.host, 'connections.confirm', { id: idArg(ctx, 'connections confirm <id>') }),
    format: (value) => `Confirmed ${describe(value as ConnectionProfileView)}`,
  },
  {
    words: ['connections', 'models'],
    usage: 'connections models <id>',
    dataOnly: true,
    summary: 'The models a connection offers.',
    run: async (ctx) => callHost(ctx.host, 'connections.models', { id: idArg(ctx, 'connections models <id>') }),
    format: (value) => (value as { models: string[] }).models.join('\n') || 'No models.',
  },
  {
    words: ['sidecar', 'set'],
    usage: SIDECAR_USAGE,
    dataOnly: true,
    summary: 'Choose the sidecar LLM the council tools use (temperature 0–2, top P 0–1, max tokens 1–65536).',
    flags: { connection: { type: 'string' }, model: { type: 'string' }, temperature: { type: 'string' }, 'top-p': { type: 'string' }, 'max-tokens': { type: 'string' } },
    async run(ctx) {
      const temperature = num(ctx, 'temperature');
      const topP = num(ctx, 'top-p');
      const maxTokens = num(ctx, 'max-tokens');
      return callHost(ctx.host, 'sidecar.update', {
        patch: {
          connectionProfileId: required(ctx, 'connection', SIDECAR_USAGE),
          model: required(ctx, 'model', SIDECAR_USAGE),
          ...(temperature !== undefined ? { temperature } : {}),
          ...(topP !== undefined ? { topP } : {}),
          ...(maxTokens !== undefined ? { maxTokens } : {}),
        },
      });
    },
    format(value) {
      const s = value as { config: { connectionProfileId: string; model: string; temperature: number; topP: number; maxTokens: number }; problem?: string };
      return `Sidecar: ${s.config.connectionProfileId} / ${s.config.model}, temperature ${s.config.temperature}, top P ${s.config.topP}, max tokens ${s.config.maxTokens}${
        s.problem ? `\n! ${s.problem}` : ''
      }`;
    },
  },
];
