// The built-in workspace tools over <dataDir>/notes (source `notes`): read, list, inspect, create, update, search/replace, frontmatter, rename.
import { HostFailure, type HostError } from '../../../shared/errors';
import type { ApprovalDiff } from '../../../shared/types/safety';
import type { ToolRegistrationDTO } from '../../../shared/types/spindle';
import type { ExecuteRequest, ExecuteResult, ToolExecutor } from '../registry-port';
import type { ToolRegistry } from '../registry/tool-registry';
import type { GuardedInvoker } from '../safety/guarded-invoke';
import { unifiedDiff } from '../../../shared/text/line-diff';
import { editSection, headings, links, readFrontmatter, readSection, renameLinks, updateFrontmatter, type FrontmatterValue } from './markdown';
import { NoteStore, type ResolvedNote } from './note-store';

export const NOTES_SOURCE_ID = 'notes';

const PAGE = { type: 'string', minLength: 1, maxLength: 512, description: 'Note name relative to the notes folder, e.g. "Journal/2024-05-01" (".md" optional).' };
const CONTENT = { type: 'string', maxLength: 1_000_000 };
const SCALAR = { type: ['string', 'number', 'boolean', 'null'] };

const common = { council_eligible: true, inline_available: true } as const;
const write = { ...common, mode: 'write', requires_approval: true, write_path_param: 'page' } as const;

export const NOTE_TOOLS: ToolRegistrationDTO[] = [
  {
    name: 'read_note',
    display_name: 'Read note',
    description: 'Returns the markdown text of a note in the notes folder, or only the section under one heading.',
    parameters: {
      type: 'object',
      properties: { page: PAGE, section: { type: 'string', maxLength: 200, description: 'Heading text; returns that section only.' } },
      required: ['page'],
      additionalProperties: false,
    },
    ...common,
    mode: 'read',
    read_path_param: 'page',
  },
  {
    name: 'list_pages',
    display_name: 'List notes',
    description: 'Lists note names in the notes folder, optionally only under one folder; recursive by default.',
    parameters: {
      type: 'object',
      properties: { folder: { type: 'string', maxLength: 512 }, recursive: { type: 'boolean' } },
      additionalProperties: false,
    },
    ...common,
    mode: 'read',
    read_path_param: 'folder',
    output_schema: { type: 'object', properties: { pages: { type: 'array', items: { type: 'string' } } }, required: ['pages'] },
  },
  {
    name: 'get_page_info',
    display_name: 'Note info',
    description: "A note's size, modified time, headings, frontmatter keys and the [[links]] it contains.",
    parameters: { type: 'object', properties: { page: PAGE }, required: ['page'], additionalProperties: false },
    ...common,
    mode: 'read',
    read_path_param: 'page',
  },
  {
    name: 'create_note',
    display_name: 'Create note',
    description: 'Creates a new note with the given markdown; fails if a note with that name exists.',
    parameters: { type: 'object', properties: { page: PAGE, content: CONTENT }, required: ['page', 'content'], additionalProperties: false },
    ...write,
  },
  {
    name: 'update_note',
    display_name: 'Update note',
    description: 'Replaces, appends to or prepends to a note, or to one section of it (by heading).',
    parameters: {
      type: 'object',
      properties: {
        page: PAGE,
        content: CONTENT,
        mode: { type: 'string', enum: ['replace', 'append', 'prepend'], description: 'Default replace.' },
        section: { type: 'string', maxLength: 200, description: 'Heading text; edits only that section.' },
      },
      required: ['page', 'content'],
      additionalProperties: false,
    },
    ...write,
  },
  {
    name: 'search_replace',
    display_name: 'Find and replace in note',
    description: 'Replaces literal text in a note: the first match, all matches, or the nth match.',
    parameters: {
      type: 'object',
      properties: {
        page: PAGE,
        search: { type: 'string', minLength: 1, maxLength: 10_000 },
        replace: { type: 'string', maxLength: 100_000 },
        occurrence: { type: 'string', enum: ['first', 'all', 'nth'], description: 'Default first.' },
        n: { type: 'integer', minimum: 1, maximum: 100_000, description: 'Which match when occurrence is nth (1 = first).' },
      },
      required: ['page', 'search', 'replace'],
      additionalProperties: false,
    },
    ...write,
  },
  {
    name: 'update_frontmatter',
    display_name: 'Update note frontmatter',
    description: 'Sets or removes top-level frontmatter keys (key: value) without touching the rest of the note.',
    parameters: {
      type: 'object',
      properties: {
        page: PAGE,
        set: {
          type: 'object',
          propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_-]{0,63}$' },
          additionalProperties: { anyOf: [SCALAR, { type: 'array', maxItems: 100, items: { type: ['string', 'number', 'boolean'] } }] },
          maxProperties: 100,
        },
        remove: { type: 'array', items: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_-]{0,63}$' }, maxItems: 100 },
      },
      required: ['page'],
      additionalProperties: false,
    },
    ...write,
  },
  {
    name: 'rename_note',
    display_name: 'Rename note',
    description: 'Renames or moves a note and updates [[links]] to it in the other notes.',
    parameters: { type: 'object', properties: { page: PAGE, newName: PAGE }, required: ['page', 'newName'], additionalProperties: false },
    ...write,
    write_path_param: ['page', 'newName'],
  },
];

function fail(error: HostError): never {
  throw new HostFailure(error);
}

type Args = Record<string, unknown>;

/** The new text of a single-note write, from the current text (null when the note does not exist). Pure. */
export function applyWrite(toolName: string, args: Args, current: string | null, name: string): string {
  const content = typeof args.content === 'string' ? args.content : '';
  const needExisting = (): string => current ?? fail({ code: 'NOTE_NOT_FOUND', message: `There is no note "${name}".`, hint: 'Create it with create_note.' });
  switch (toolName) {
    case 'create_note':
      if (current !== null) fail({ code: 'NOTE_EXISTS', message: `A note "${name}" already exists.`, hint: 'Use update_note to change it.', path: '/page' });
      return content;
    case 'update_note': {
      const text = needExisting();
      const mode = (args.mode as 'replace' | 'append' | 'prepend' | undefined) ?? 'replace';
      if (typeof args.section === 'string' && args.section.trim()) {
        const edited = editSection(text, args.section, content, mode);
        if (edited === null) fail({ code: 'SECTION_NOT_FOUND', message: `"${name}" has no heading "${args.section.slice(0, 200)}".`, path: '/section' });
        return edited;
      }
      if (mode === 'replace') return content;
      if (mode === 'append') return text === '' || text.endsWith('\n') ? `${text}${content}` : `${text}\n${content}`;
      const fm = /^---\n[\s\S]*?\n---\n/.exec(text);
      const head = fm ? fm[0] : '';
      const rest = text.slice(head.length);
      return `${head}${content}${content.endsWith('\n') || rest === '' ? '' : '\n'}${rest}`;
    }
    case 'search_replace': {
      const text = needExisting();
      const search = String(args.search);
      const replace = String(args.replace);
      const occurrence = (args.occurrence as string | undefined) ?? 'first';
      const positions: number[] = [];
      for (let i = text.indexOf(search); i >= 0; i = text.indexOf(search, i + search.length)) positions.push(i);
      if (positions.length === 0) fail({ code: 'TEXT_NOT_FOUND', message: `"${name}" does not contain the search text.`, path: '/search' });
      if (occurrence === 'all') return text.split(search).join(replace);
      const n = occurrence === 'nth' ? Number(args.n ?? 1) : 1;
      const at = positions[n - 1];
      if (at === undefined) fail({ code: 'TEXT_NOT_FOUND', message: `"${name}" has ${positions.length} match(es), not ${n}.`, path: '/n' });
      return text.slice(0, at) + replace + text.slice(at + search.length);
    }
    case 'update_frontmatter': {
      const text = needExisting();
      return updateFrontmatter(text, (args.set as Record<string, FrontmatterValue> | undefined) ?? {}, (args.remove as string[] | undefined) ?? []);
    }
    default:
      return fail({ code: 'UNKNOWN_TOOL', message: `No note tool "${toolName}".` });
  }
}

export class NoteTools implements ToolExecutor {
  constructor(readonly store: NoteStore) {}

  async execute(request: ExecuteRequest): Promise<ExecuteResult> {
    try {
      return { ok: true, value: await this.run(request.toolName, request.args, request.mayWrite) };
    } catch (err) {
      if (err instanceof HostFailure) return { ok: false, error: err.error };
      throw err;
    }
  }

  private async run(toolName: string, args: Args, mayWrite: ((path: string) => boolean) | undefined): Promise<unknown> {
    const store = this.store;
    switch (toolName) {
      case 'read_note': {
        const note = await store.resolve(args.page);
        const text = await store.readExisting(note);
        if (typeof args.section === 'string' && args.section.trim()) {
          const section = readSection(text, args.section);
          if (section === null) fail({ code: 'SECTION_NOT_FOUND', message: `"${note.name}" has no heading "${args.section.slice(0, 200)}".`, path: '/section' });
          return section;
        }
        return text;
      }
      case 'list_pages': {
        const folder = typeof args.folder === 'string' && args.folder !== '' ? await store.resolve(args.folder, '/folder', { folder: true }) : null;
        return { pages: await store.list(folder, args.recursive !== false) };
      }
      case 'get_page_info': {
        const note = await store.resolve(args.page);
        const text = await store.readExisting(note);
        const stat = await store.stat(note);
        return {
          page: note.name,
          bytes: stat.size,
          modified: new Date(stat.mtimeMs).toISOString(),
          headings: headings(text).map((h) => ({ level: h.level, text: h.text })),
          frontmatter: readFrontmatter(text),
          links: links(text),
        };
      }
      case 'rename_note':
        return this.rename(args, mayWrite);
      default: {
        const note = await store.resolve(args.page);
        const { before, after } = await store.update(note, (current) => applyWrite(toolName, args, current, note.name));
        return { page: note.name, action: toolName, created: before === null, bytes: Buffer.byteLength(after, 'utf8') };
      }
    }
  }

  /**
   * Moves the note, then points [[links]] in the other notes at the new name — only in notes the
   * caller may write (its path lists); the others are named in linksLeftUnchanged, untouched.
   */
  private async rename(args: Args, mayWrite: ((path: string) => boolean) | undefined): Promise<unknown> {
    const from = await this.store.resolve(args.page, '/page');
    const to = await this.store.resolve(args.newName, '/newName');
    if (from.file === to.file) fail({ code: 'INVALID_ARGUMENTS', message: 'The new name is the same as the old one.', path: '/newName' });
    await this.store.move(from, to);
    const updated: string[] = [];
    const leftUnchanged: string[] = [];
    for (const name of await this.store.list(null, true)) {
      if (name === to.name) continue;
      const page = await this.store.resolve(name).catch(() => null);
      if (!page) continue;
      if (mayWrite && !mayWrite(name)) {
        const current = await this.store.read(page).catch(() => null);
        if (current !== null && renameLinks(current, from.name, to.name) !== current) leftUnchanged.push(name);
        continue;
      }
      const { before, after } = await this.store.update(page, (current) => (current === null ? '' : renameLinks(current, from.name, to.name)));
      if (before !== null && before !== after) updated.push(name);
    }
    return {
      page: to.name,
      renamedFrom: from.name,
      linksUpdatedIn: updated,
      ...(leftUnchanged.length > 0 ? { linksLeftUnchanged: leftUnchanged, note: 'These notes still link to the old name: the caller may not write them.' } : {}),
    };
  }

  /** The approval preview: what the write would do to the note(s) now; nothing is written. */
  async preview(toolName: string, args: Args, mayWrite?: (path: string) => boolean): Promise<ApprovalDiff | null> {
    if (toolName === 'rename_note') return this.renamePreview(args, mayWrite);
    if (!NOTE_TOOLS.some((t) => t.name === toolName && t.mode === 'write')) return null;
    let note: ResolvedNote;
    try {
      note = await this.store.resolve(args.page);
    } catch {
      return null;
    }
    const before = await this.store.read(note).catch(() => null);
    let after: string;
    try {
      after = applyWrite(toolName, args, before, note.name);
    } catch {
      // The call will fail with the same error when it runs; there is nothing to preview.
      return null;
    }
    const created = before === null;
    return { path: note.name, before: before ?? '', after, unified: unifiedDiff(`${note.name}.md`, before ?? '', after, { created }), created, inferred: false };
  }

  private async renamePreview(args: Args, mayWrite: ((path: string) => boolean) | undefined): Promise<ApprovalDiff | null> {
    try {
      const from = await this.store.resolve(args.page, '/page');
      const to = await this.store.resolve(args.newName, '/newName');
      const text = (await this.store.read(from)) ?? '';
      const parts = [`rename from ${from.name}.md`, `rename to ${to.name}.md`, ''];
      for (const name of await this.store.list(null, true)) {
        if (name === from.name) continue;
        const page = await this.store.resolve(name).catch(() => null);
        const current = page ? await this.store.read(page).catch(() => null) : null;
        if (current === null) continue;
        const next = renameLinks(current, from.name, to.name);
        if (next === current) continue;
        if (mayWrite && !mayWrite(name)) parts.push(`links left unchanged in ${name}.md (outside the allowed write paths)`);
        else parts.push(unifiedDiff(`${name}.md`, current, next));
      }
      return { path: `${from.name} → ${to.name}`, before: text, after: text, unified: parts.join('\n'), created: false, inferred: false };
    } catch {
      return null;
    }
  }
}

/** Registers the note tools as builtin source `notes` and their preview with the guard; returns an uninstaller. */
export function installNoteTools(registry: ToolRegistry, guard: GuardedInvoker, notesRoot: string): { tools: NoteTools; uninstall(): void } {
  const tools = new NoteTools(new NoteStore(notesRoot));
  for (const dto of NOTE_TOOLS) {
    const result = registry.register({ kind: 'builtin', id: NOTES_SOURCE_ID }, dto, tools);
    if (!result.ok) throw new Error(`note tool ${dto.name} failed to register: ${result.error.message}`);
  }
  const offPreview = guard.setPreviewProvider(NOTES_SOURCE_ID, (name, args, mayWrite) => tools.preview(name, args, mayWrite));
  return {
    tools,
    uninstall() {
      offPreview();
      registry.unregisterAll(NOTES_SOURCE_ID);
    },
  };
}
