// Checks a Lumia pack file: size cap first, then JSON, then the schema (errors name the field path), then unique ids.
import type { HostError, Result } from '../../../shared/errors';
import { LumiaPackSchema, PACK_LIMITS, type LumiaPack } from '../../../shared/types/council';
import { describeAjvError, lazyValidator } from '../contract/validators';
import { fromLumiHub, isLumiHubPack, isOlderDlcPack, isOlderLumiaPack, olderDlcToLumiHub, olderToLumiHub } from './lumihub-pack';

const validateSchema = lazyValidator<LumiaPack>(LumiaPackSchema);

const invalid = (message: string, path: string, hint?: string): Result<LumiaPack> => {
  const error: HostError = { code: 'INVALID_PACK', message, path };
  if (hint) error.hint = hint;
  return { ok: false, error };
};

/** `bytes` is the file's size; the text is never parsed when it is over the cap. */
export function parsePack(text: string, bytes = Buffer.byteLength(text, 'utf8')): Result<LumiaPack> {
  if (bytes > PACK_LIMITS.maxFileBytes) {
    return invalid(`The pack file is ${bytes} bytes; the limit is ${PACK_LIMITS.maxFileBytes} (64 MB).`, '', 'Use smaller avatar images.');
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return invalid(`The pack file is not valid JSON: ${(err as Error).message}`, '');
  }
  return validatePack(raw);
}

/** The Workbench shape, LumiHub's or the older Lumia one (converted first); unknown fields of ours are dropped. */
export function validatePack(input: unknown): Result<LumiaPack> {
  const raw = isLumiHubPack(input)
    ? fromLumiHub(input)
    : isOlderLumiaPack(input)
      ? fromLumiHub(olderToLumiHub(input))
      : isOlderDlcPack(input)
        ? fromLumiHub(olderDlcToLumiHub(input))
        : input;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || !('id' in raw)) {
    return invalid(
      'This file is not a Lumia pack the Workbench reads.',
      '',
      "Accepted: a LumiHub or Lumiverse pack (packName and lumiaItems), an older Lumia DLC (name, author and lumiaItems), the older Lumia shape (name and items with name and definition), or the Workbench's own (id, name, version, items).",
    );
  }
  const items: unknown = (raw as { items?: unknown }).items;
  if (Array.isArray(items)) {
    const count = items.length;
    if (count > PACK_LIMITS.maxItems) return invalid(`The pack has ${count} items; the limit is ${PACK_LIMITS.maxItems}.`, '/items');
  }
  if (!validateSchema(raw)) {
    const { message, path } = describeAjvError(validateSchema.errors?.[0], 'pack is invalid');
    return invalid(`Invalid pack: ${message}`, path);
  }
  const pack = raw;
  const loom = (pack.lumihub as { loomItems?: unknown[] } | undefined)?.loomItems ?? [];
  if (pack.items.length === 0 && !pack.tools?.length && loom.length === 0) return invalid('A pack needs at least one item, a tool, or loom items.', '/items');
  const seen = new Set<string>();
  for (const [i, item] of pack.items.entries()) {
    if (seen.has(item.id)) return invalid(`Item id "${item.id}" appears twice.`, `/items/${i}/id`);
    seen.add(item.id);
    if (item.avatar && !item.avatar.startsWith('data:') && (item.avatar.includes('..') || item.avatar.startsWith('/'))) {
      return invalid('An avatar path must stay inside the pack folder.', `/items/${i}/avatar`);
    }
  }
  const tools = new Set<string>();
  for (const [i, tool] of (pack.tools ?? []).entries()) {
    if (tools.has(tool.name)) return invalid(`Tool name "${tool.name}" appears twice.`, `/tools/${i}/name`);
    tools.add(tool.name);
  }
  return { ok: true, value: clean(pack) };
}

function clean(pack: LumiaPack): LumiaPack {
  const out: LumiaPack = {
    id: pack.id,
    name: pack.name,
    version: pack.version,
    items: pack.items.map((i) => ({
      id: i.id,
      name: i.name,
      ...(i.avatar ? { avatar: i.avatar } : {}),
      definition: i.definition,
      personality: i.personality,
      behavior: i.behavior,
      genderIdentity: i.genderIdentity,
    })),
  };
  if (pack.author !== undefined) out.author = pack.author;
  if (pack.description !== undefined) out.description = pack.description;
  if (pack.lumihub) out.lumihub = pack.lumihub;
  if (pack.tools?.length) out.tools = pack.tools.map((t) => ({ name: t.name, displayName: t.displayName, description: t.description, prompt: t.prompt }));
  return out;
}
