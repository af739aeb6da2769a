// `sidecar show`: the sidecar LLM settings and whether they are usable (`sidecar set` lives with the connection commands).
import { callHost, type CliCommand } from './command';

export const sidecarCommands: CliCommand[] = [
  {
    words: ['sidecar', 'show'],
    usage: 'sidecar show',
    dataOnly: true,
    summary: 'The sidecar LLM settings and whether they are usable.',
    run: ({ host }) => callHost(host, 'sidecar.get', {}),
    format(value) {
      const s = value as { config: { connectionProfileId: string; model: string; temperature: number; topP: number; maxTokens: number }; configured: boolean; problem?: string };
      return `Sidecar: ${s.config.connectionProfileId || '(none)'} / ${s.config.model || '(default model)'}, temperature ${s.config.temperature}, top P ${s.config.topP}, max tokens ${s.config.maxTokens}${
        s.configured ? '' : `\n! ${s.problem ?? 'not configured'}`
      }`;
    },
  },
];
