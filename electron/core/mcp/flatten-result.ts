// An MCP CallToolResult → the text a model reads, or a tool error when the server set isError.
//
// Text blocks pass as-is; images, audio and resources become one-line summaries (their bytes never
// reach a prompt); structuredContent is appended as JSON when there is no text to carry it. URLs in
// the result are data: nothing here, or downstream, opens or runs them.
import type { ExecuteResult } from '../registry-port';

const MAX_SUMMARY_CHARS = 512;

function clip(text: string): string {
  return text.length > MAX_SUMMARY_CHARS ? `${text.slice(0, MAX_SUMMARY_CHARS)}…` : text;
}

function str(value: unknown, fallback: string): string {
  return typeof value === 'string' && value !== '' ? clip(value) : fallback;
}

function flattenBlock(block: unknown): { text: string; isText: boolean } {
  if (typeof block !== 'object' || block === null) return { text: '[unsupported content]', isText: false };
  const b = block as Record<string, unknown>;
  switch (b.type) {
    case 'text':
      return { text: typeof b.text === 'string' ? b.text : '', isText: true };
    case 'image':
      return { text: `[image: ${str(b.mimeType, 'unknown type')}]`, isText: false };
    case 'audio':
      return { text: `[audio: ${str(b.mimeType, 'unknown type')}]`, isText: false };
    case 'resource_link':
      return { text: `[resource: ${str(b.uri, 'no uri')}${typeof b.name === 'string' && b.name ? ` (${clip(b.name)})` : ''}]`, isText: false };
    case 'resource': {
      const r = (typeof b.resource === 'object' && b.resource !== null ? b.resource : {}) as Record<string, unknown>;
      const head = `[resource: ${str(r.uri, 'no uri')}${typeof r.mimeType === 'string' ? ` ${clip(r.mimeType)}` : ''}]`;
      // An embedded text resource is text the tool chose to return; a blob is bytes and is only named.
      return typeof r.text === 'string' ? { text: `${head}\n${r.text}`, isText: true } : { text: head, isText: false };
    }
    default:
      return { text: `[${str(b.type, 'unknown')} content]`, isText: false };
  }
}

/** Flattens content blocks; structuredContent is appended when present and no text block carried anything. */
export function flattenContent(result: { content?: unknown; structuredContent?: unknown; toolResult?: unknown }): string {
  const blocks = Array.isArray(result.content) ? result.content : [];
  const parts: string[] = [];
  let hasText = false;
  for (const block of blocks) {
    const flat = flattenBlock(block);
    if (flat.isText && flat.text !== '') hasText = true;
    if (flat.text !== '') parts.push(flat.text);
  }
  if (!hasText && result.structuredContent !== undefined && result.structuredContent !== null) {
    parts.push(JSON.stringify(result.structuredContent));
  }
  // Servers on the 2024-10-07 protocol answer `{ toolResult }` instead of content.
  if (parts.length === 0 && result.toolResult !== undefined) {
    parts.push(typeof result.toolResult === 'string' ? result.toolResult : JSON.stringify(result.toolResult));
  }
  return parts.join('\n');
}

/** isError → MCP_TOOL_ERROR carrying the text (input validation failures come back this way, for the model to fix). */
export function toExecuteResult(result: unknown, toolName: string): ExecuteResult {
  if (typeof result !== 'object' || result === null) {
    return { ok: false, error: { code: 'INVALID_RESULT', message: `MCP tool "${toolName}" returned a malformed result` } };
  }
  const r = result as { content?: unknown; structuredContent?: unknown; isError?: unknown; toolResult?: unknown };
  const text = flattenContent(r);
  if (r.isError === true) {
    return {
      ok: false,
      error: { code: 'MCP_TOOL_ERROR', message: text || `MCP tool "${toolName}" reported an error without a message` },
    };
  }
  return { ok: true, value: text };
}
