// spindle.generate: LLM generations through the user's connections, answered by the host (permission `generation`).
import { validateGenerateInput, type GenerateKind, type QuietGenerateInput, type RawGenerateInput, type RawGenerateResult } from '../../../shared/protocol';
import { hostErrorToError, type HostRequests } from '../host-requests';

export interface GenerateOptions {
  /** Aborting it abandons the generation: the host stops it and the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface SpindleGenerate {
  /** A background generation on the sidecar connection; resolves with its text. */
  quiet(input: QuietGenerateInput, options?: GenerateOptions): Promise<string>;
  /** A direct generation on `connectionId` (default: the chat's main connection), no prompt assembly. */
  raw(input: RawGenerateInput, options?: GenerateOptions): Promise<RawGenerateResult>;
}

export function createGenerate(requests: HostRequests): SpindleGenerate {
  const run = (kind: GenerateKind, input: unknown, options: GenerateOptions | undefined) => {
    // Checked here too, so a bad or oversized input fails without crossing the channel; the host checks again.
    const checked = validateGenerateInput(kind, input);
    if (!checked.ok) return Promise.reject(hostErrorToError(checked.error));
    return requests.call(`generate.${kind}`, checked.input, options?.signal);
  };
  return {
    quiet: (input, options) => run('quiet', input, options) as Promise<string>,
    raw: (input, options) => run('raw', input, options) as Promise<RawGenerateResult>,
  };
}
