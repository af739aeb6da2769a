// Scrubs API keys from any string or value before it is logged, returned or shown: known keys verbatim, plus common key shapes.
import type { Logger } from '../ports';

export const REDACTED = '[REDACTED]';

/** Keys shorter than this are not registered: redacting every "abc" would mangle ordinary text. */
export const MIN_SECRET_LENGTH = 6;

// Shapes worth scrubbing even when the key is not one we know (a key pasted into a header, a provider echo).
const KEY_PATTERNS: Array<[RegExp, string]> = [
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/g, `$1 ${REDACTED}`],
  [/\bsk-[A-Za-z0-9_-]{8,}/g, REDACTED],
  [/\bAIza[0-9A-Za-z_-]{20,}/g, REDACTED],
  [/\b(x-api-key|x-goog-api-key|api-key|authorization)(["']?\s*[:=]\s*["']?)[^\s"',}]{6,}/gi, `$1$2${REDACTED}`],
];

const MAX_DEPTH = 8;

export class Redactor {
  private readonly secrets = new Set<string>();
  private sorted: string[] = [];

  /** Remembers a key (and its URL-encoded form). Keys are kept even after they are deleted: old logs may still hold them. */
  add(secret: string | undefined | null): void {
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH) return;
    const before = this.secrets.size;
    this.secrets.add(secret);
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret) this.secrets.add(encoded);
    if (this.secrets.size !== before) this.sorted = [...this.secrets].sort((a, b) => b.length - a.length);
  }

  get size(): number {
    return this.secrets.size;
  }

  redact(text: string): string {
    let out = text;
    for (const secret of this.sorted) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    for (const [pattern, replacement] of KEY_PATTERNS) out = out.replace(pattern, replacement);
    return out;
  }

  /** A deep copy with every string redacted; Errors become plain `{ name, message, stack }` objects. */
  redactValue(value: unknown): unknown {
    return this.walk(value, 0, new WeakSet());
  }

  private walk(value: unknown, depth: number, seen: WeakSet<object>): unknown {
    if (typeof value === 'string') return this.redact(value);
    if (typeof value !== 'object' || value === null) return value;
    if (seen.has(value)) return '[Circular]';
    if (depth >= MAX_DEPTH) return '[Truncated]';
    seen.add(value);
    if (value instanceof Error) {
      const out: Record<string, unknown> = { name: value.name, message: this.redact(value.message) };
      if (value.stack) out.stack = this.redact(value.stack);
      const code = (value as { code?: unknown }).code;
      if (typeof code === 'string') out.code = code;
      return out;
    }
    if (Array.isArray(value)) return value.map((item) => this.walk(item, depth + 1, seen));
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = this.walk(item, depth + 1, seen);
    return out;
  }
}

/** A logger that redacts the message and every detail before passing them on. */
export function createRedactingLogger(inner: Logger, redactor: Redactor): Logger {
  const wrap =
    (level: keyof Logger) =>
    (message: string, ...details: unknown[]) =>
      inner[level](redactor.redact(message), ...details.map((d) => redactor.redactValue(d)));
  return { info: wrap('info'), warn: wrap('warn'), error: wrap('error') };
}
