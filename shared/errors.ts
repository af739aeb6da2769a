// The one error shape that crosses every boundary, and its stable codes.

export const ERROR_CODES = [
  // contract / transport
  'UNKNOWN_METHOD',
  'INVALID_INPUT',
  'INPUT_TOO_LARGE',
  'UNAUTHORIZED',
  'INTERNAL',
  'HOST_SHUTDOWN',
  'HOST_TIMEOUT',
  'NOT_FOUND',
  'CONFLICT',
  /** A backup restore stopped at an item and put back what it had written: the folder is as it was. */
  'RESTORE_FAILED',
  // data dir and settings
  'DATA_DIR_MISSING',
  'DATA_DIR_NOT_DIRECTORY',
  'DATA_DIR_READ_ONLY',
  'SETTINGS_INVALID',
  'SETTINGS_WRITE_FAILED',
  // tools and extensions
  'INVALID_TOOL_NAME',
  'INVALID_SCHEMA',
  'INVALID_ARGUMENTS',
  'INVALID_ARGUMENTS_JSON',
  'INVALID_MANIFEST',
  /** An extension's src/backend.ts did not build (file and line in the message). */
  'BUILD_FAILED',
  'UNKNOWN_TOOL',
  'TOOL_UNAVAILABLE',
  'TOOL_TIMEOUT',
  'TOOL_ERROR',
  /** A call the model made that its turn did not run (no tools offered, round cap, stopped). */
  'TOOL_NOT_RUN',
  'TOO_MANY_TOOLS',
  'RESULT_TOO_LARGE',
  'INVALID_RESULT',
  /** A call reused the id of one still running (a tool request, a generation, a model's tool call in one turn). */
  'DUPLICATE_CALL_ID',
  'WORKER_CRASHED',
  'WORKER_UNRESPONSIVE',
  /** The worker wrote something that is not a protocol frame, or one over the size cap. */
  'WORKER_PROTOCOL',
  /** The worker's resident memory passed its cap. */
  'WORKER_MEMORY',
  /** A Lumiverse API member the Workbench has no equivalent for. */
  'UNSUPPORTED_HERE',
  'PERMISSION_DENIED',
  'CANCELLED',
  // spindle.generate (extensions/generation-gate.ts), spindle.toast
  'RATE_LIMITED',
  // Extension frontends (shared/frames): a frame that flooded the broker, or asked after it was stopped
  'FRAME_FLOOD',
  'FRAME_STOPPED',
  'GENERATION_UNAVAILABLE',
  /** A connection a backup restore brought back is waiting for the person to confirm it. */
  'CONNECTION_HELD',
  // MCP servers
  'MCP_TOOL_ERROR',
  'MCP_CONNECT_FAILED',
  'MCP_INIT_TIMEOUT',
  // safe tool use: approvals, path permissions, built-in note tools
  'APPROVAL_REJECTED',
  'APPROVAL_TIMEOUT',
  'APPROVAL_MISMATCH',
  'APPROVAL_DENIED',
  'PATH_NOT_ALLOWED',
  'INVALID_NOTE_NAME',
  'NOTE_EXISTS',
  'NOTE_NOT_FOUND',
  'SECTION_NOT_FOUND',
  'TEXT_NOT_FOUND',
  // extension storage (spindle.storage, ephemeral files)
  'QUOTA_EXCEEDED',
  /** spindle.presets.update with a revision another writer has passed (Lumiverse's code; the detail says which). */
  'PRESET_REVISION_CONFLICT',
  /** A preset file that is not a Lumiverse preset (the path says where). */
  'INVALID_PRESET',
  // chat and council
  'CHAT_NO_CONNECTION',
  'COUNCIL_FAILED',
  /** <dataDir>/runs cannot be read as a folder (the message gives the folder and the system's code). */
  'RUNS_UNREADABLE',
  'INVALID_PACK',
  'SIDECAR_NOT_CONFIGURED',
  /** A council task whose member's pack item or tool is gone (CouncilToolResult.errorCode). */
  'MISSING',
  // the LLM layer (electron/core/llm/errors.ts)
  'LLM_AUTH_FAILED', // 401 / 403
  'LLM_RATE_LIMITED', // 429 (after retries)
  'LLM_SERVER_ERROR', // 5xx (after retries)
  'LLM_NOT_FOUND', // 404: wrong base URL or model
  'LLM_REQUEST_REJECTED', // other 4xx
  'LLM_BAD_RESPONSE', // malformed or truncated stream, unexpected shape
  'LLM_TIMEOUT',
  'LLM_UNREACHABLE', // connection refused, DNS, TLS, reset before a response
  'LLM_NO_KEY', // the profile names a key that is not there
  'LLM_NO_TOOL_CALL', // planArguments: the model did not call the forced tool
  'LLM_RESPONSE_TOO_LARGE', // the stream passed the client's character cap
  'LLM_MODEL_LOAD_FAILED', // a local model: the GGUF is missing, unreadable, or does not fit in memory
  'LLM_ENGINE_CRASHED', // a local model: the engine process ended while it worked (out of memory, a crash)
  // local model downloads (electron/core/local-model/model-download.ts)
  'DOWNLOAD_FAILED', // the server refused, or the connection dropped (a resume continues from what arrived)
  'DOWNLOAD_CHECKSUM_MISMATCH', // the file's SHA-256 is not the one expected: nothing is kept
  'DISK_FULL', // not enough free space for the file
  // managed backend processes (spindle.backendProcesses)
  'PROCESS_FAILED', // the child failed, completed, stopped or exited before it said it was ready
  'PROCESS_TIMEOUT', // the child did not say it was ready within its startup time
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface HostError {
  code: ErrorCode | (string & {});
  message: string;
  hint?: string;
  /** JSON-pointer-like path of the offending field, e.g. `/members/0/chance`. */
  path?: string;
  /** Fields a caller matches on besides the code (a preset conflict's actualCacheRevision), as Lumiverse's errors carry them. */
  detail?: Record<string, string | number>;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: HostError };

/** Thrown inside the core to return a structured error; the dispatcher turns it into data. */
export class HostFailure extends Error {
  readonly error: HostError;
  constructor(error: HostError) {
    super(error.message);
    this.name = 'HostFailure';
    this.error = error;
  }
}

export function fail(code: ErrorCode, message: string, extra: Pick<HostError, 'hint' | 'path' | 'detail'> = {}): never {
  throw new HostFailure({ code, message, ...extra });
}

export function isHostError(value: unknown): value is HostError {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as HostError).code === 'string' &&
    typeof (value as HostError).message === 'string'
  );
}

/** What a model call can fail with (the LLM client's codes): every method that generates declares them all. */
export const LLM_ERROR_CODES: readonly ErrorCode[] = ERROR_CODES.filter((code) => code.startsWith('LLM_'));
