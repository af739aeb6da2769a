// Lumiverse's preset editor as a frontend granted `presets` reaches it (ctx.ui.presetEditor, registerPresetEditorTab,
// registerPresetEditorToolbarItem). The Workbench's preset editor is a session's "Preset": open while it shows the
// chat's preset. getState() answers that preset as Lumiverse's draft; updatePreset runs the mutator at once on the
// latest draft (the change waiting, else the one saving, else the preset as told) and saves it after 400 ms or at once,
// at the revision it was built on; a preset another writer changed meanwhile is read again and the change rebased on
// it, as Lumiverse's editor does (its blocks only if nobody else changed them). presetEditor.extension keeps the
// extension's own key of the preset's metadata (its manifest identifier).
import type { FrontendCall, PresetDraft, PresetEditorState } from '../../shared/frames/host-state';
import { frameError } from './channel';
import { EditorDrafts } from './editor-drafts';
import { editorTabs } from './editor-tabs';
import type { RuntimeState } from './runtime-state';
import { clip, openSurface } from './surface-open';
import { tellEach } from './tell-each';

/** How long Lumiverse's preset editor waits before saving a change. */
export const PRESET_SAVE_DELAY_MS = 400;
/** Saves retried over another writer's change before giving up (Lumiverse's coordinator). */
const REBASE_ATTEMPTS = 3;
const LIMITS = { tabs: 8, toolbarItems: 4 };
const DRAFT_KEYS = ['id', 'name', 'blocks', 'parameters', 'prompts', 'metadata', 'createdAt', 'updatedAt'];
/** Loom's own metadata keys: an extension whose identifier is one of them has no metadata key of its own. */
const LOOM_KEYS = new Set(['source', 'modelProfiles', 'schemaVersion', 'description', 'coverUrl', 'cover_url', 'isDefault', 'lastProfileKey', 'promptVariables']);
const CLOSED: PresetEditorState = { open: false, activeSurfaceId: null, preset: null, revision: 0, promptVariableValues: {} };

type Json = Record<string, unknown>;
type StoredPreset = { name: string; prompt_order: Json[]; parameters: Json; prompts: Json; metadata: Json; cache_revision: number; created_at: number; updated_at: number };
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
/** A conflict this frontend's change cannot be saved over: the change is dropped and the preset shown as stored. */
const unsaved = (err: unknown) => Object.assign(frameError('PRESET_REVISION_CONFLICT', `PRESET_REVISION_CONFLICT: the preset was changed meanwhile and this change cannot be made over it (${(err as Error).message ?? err}); it was dropped.`), { dropped: true });

/** Plain JSON all the way down (no Date, Map, class instance, function or non-finite number), as Lumiverse checks metadata. */
function plainJson(value: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((v) => plainJson(v, depth + 1));
  if (typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && Object.values(value).every((v) => plainJson(v, depth + 1));
}

/** A preset as stored, as the editor's draft (its prompt variables apart). */
function draftOf(id: string, p: StoredPreset): { draft: PresetDraft; variables: Json } {
  const { promptVariables, ...metadata } = p.metadata;
  const draft = { id, name: p.name, blocks: p.prompt_order, parameters: p.parameters, prompts: p.prompts, metadata, createdAt: p.created_at, updatedAt: p.updated_at };
  return { draft, variables: isObject(promptVariables) ? promptVariables : {} };
}

/** The mutator's answer, checked as Lumiverse's editor checks a draft. */
function checkedDraft(next: unknown, id: string): PresetDraft {
  if (!isObject(next)) throw frameError('INVALID_INPUT', 'Invalid Loom draft');
  const unknown = Object.keys(next).find((key) => !DRAFT_KEYS.includes(key));
  if (unknown !== undefined) throw frameError('INVALID_INPUT', `Invalid Loom draft: unknown field "${unknown.slice(0, 60)}"`);
  if (next.id !== id) throw frameError('INVALID_INPUT', 'Preset draft id cannot be changed');
  if (typeof next.name !== 'string' || !next.name.trim()) throw frameError('INVALID_INPUT', 'Preset name is required');
  if (![next.parameters, next.prompts, next.metadata].every(isObject)) throw frameError('INVALID_INPUT', 'Preset parameters, prompts, and metadata must be objects');
  if (!Array.isArray(next.blocks) || !next.blocks.every(isObject)) throw frameError('INVALID_INPUT', 'Invalid Loom blocks: each block is an object');
  return next as PresetDraft;
}

/** `mine` (this frontend's change of `base`) made again over `remote`: the fields it changed, its metadata key by key. */
function rebased(remote: PresetDraft, base: PresetDraft, mine: PresetDraft): PresetDraft {
  const next: PresetDraft = structuredClone(remote);
  for (const key of ['name', 'blocks', 'parameters', 'prompts'] as const) if (!same(mine[key], base[key])) Object.assign(next, { [key]: structuredClone(mine[key]) });
  for (const key of new Set([...Object.keys(base.metadata), ...Object.keys(mine.metadata)])) {
    if (same(mine.metadata[key], base.metadata[key])) continue;
    if (key in mine.metadata) next.metadata[key] = structuredClone(mine.metadata[key]);
    else delete next.metadata[key];
  }
  return next;
}

export function createPresetEditor(state: RuntimeState) {
  const tabs = editorTabs(state, {
    kind: 'preset',
    limit: { count: LIMITS.tabs, refuse: () => frameError('INPUT_TOO_LARGE', `Preset editor tab limit reached (max ${LIMITS.tabs} per extension)`) },
    // Every tab shows at once beside the blocks here: nothing to switch to, but a closed editor refuses.
    activate: () => void editing(),
  });
  const changeHandlers = new Set<(snapshot: unknown) => void>();
  const scopedHandlers = new Set<(snapshot: unknown) => void>();
  const told = () => state.hostState.presetEditor ?? CLOSED;
  const toldDraft = () => ({ id: told().preset?.id ?? null, value: told().preset! });
  /** What each preset's waiting change was built on, and the revision and prompt variables that go with it. */
  const bases = new Map<string, { draft: PresetDraft; revision: number; variables: Json }>();
  /** Each preset's revision and prompt variables as its last save answered: newer than the app's word until it tells of the save. */
  const answered = new Map<string, { revision: number; variables: Json }>();
  const stored = (id: string) => {
    const app = told().preset?.id === id ? { revision: told().revision, variables: told().promptVariableValues } : { revision: -1, variables: {} };
    const own = answered.get(id);
    return own && own.revision > app.revision ? own : app;
  };
  const call = <T>(method: FrontendCall, args: unknown[]) => state.channel.request('host.call', { method, args }) as Promise<T>;

  /**
   * Saves a change at the revision it was built on; over another writer's change it is read again and made again (the
   * rebase stays local until a save succeeds, so a failed one leaves the change as it was). Answers the preset as stored.
   */
  const save = async (id: string, draft: PresetDraft): Promise<PresetDraft> => {
    let base = bases.get(id) ?? { draft, ...stored(id) };
    let next = draft;
    for (let attempt = 0; ; attempt++) {
      const { blocks, metadata, name, parameters, prompts } = next;
      try {
        const saved = await call<StoredPreset>('presets.update', [id, { name, prompt_order: blocks, parameters, prompts, metadata: { ...metadata, promptVariables: base.variables }, expected_cache_revision: base.revision }]);
        const after = draftOf(id, saved);
        answered.set(id, { revision: saved.cache_revision, variables: after.variables });
        // A change waiting is made again over this save (EditorDrafts' rebase), and saved at its revision.
        if (drafts.waiting(id)) bases.set(id, { draft: after.draft, revision: saved.cache_revision, variables: after.variables });
        else bases.delete(id);
        return after.draft;
      } catch (err) {
        if ((err as { code?: string }).code !== 'PRESET_REVISION_CONFLICT') throw err;
        if (attempt >= REBASE_ATTEMPTS) throw unsaved(err);
        const fresh = await call<StoredPreset | null>('presets.get', [id]);
        if (!fresh) throw unsaved(err);
        const remote = draftOf(id, fresh);
        // Blocks both this frontend and another writer changed are not merged: the change is dropped.
        if (!same(next.blocks, base.draft.blocks) && !same(remote.draft.blocks, base.draft.blocks)) throw unsaved(err);
        next = rebased(remote.draft, base.draft, next);
        base = { draft: remote.draft, revision: fresh.cache_revision, variables: remote.variables };
      }
    }
  };
  const drafts = new EditorDrafts<PresetDraft>(save, toldDraft, {
    delayMs: PRESET_SAVE_DELAY_MS,
    rebase: (waiting, sent, stored) => rebased(stored, sent, waiting),
    drops: (err) => (err as { dropped?: boolean }).dropped === true,
  });
  const shownTabId = (editor: PresetEditorState) => tabs.tabIdOf(editor.activeSurfaceId) ?? 'preset';
  const current = (): PresetDraft | null => {
    const editor = told();
    return editor.open && editor.preset ? drafts.current({ id: editor.preset.id, value: editor.preset }) : null;
  };
  const snapshot = () => {
    const preset = current();
    return preset ? { open: true, presetId: preset.id, activeTabId: shownTabId(told()), preset: structuredClone(preset) } : { open: false, presetId: null, activeTabId: null, preset: null };
  };
  const scopedSnapshot = () => {
    const full = snapshot();
    if (!full.preset) return { open: false, presetId: null, activeTabId: null, blocks: [], promptVariableValues: {}, metadata: undefined };
    return { open: true, presetId: full.presetId, activeTabId: full.activeTabId, blocks: full.preset.blocks, promptVariableValues: structuredClone(told().promptVariableValues), metadata: full.preset.metadata[state.extensionId] };
  };

  let last = snapshot();
  const changed = () => {
    const now = snapshot();
    if (same(now, last)) return;
    const before = last;
    last = now;
    const publish = (s: typeof now) => {
      tellEach(changeHandlers, () => structuredClone(s));
      tellEach(scopedHandlers, () => (s.open ? scopedSnapshot() : { open: false, presetId: null, activeTabId: null, blocks: [], promptVariableValues: {}, metadata: undefined }));
    };
    // Another preset: closed first, as Lumiverse's editor tells it.
    if (before.open && now.open && before.presetId !== now.presetId) publish({ open: false, presetId: null, activeTabId: null, preset: null });
    publish(now);
    const opened = now.open && (!before.open || before.presetId !== now.presetId || before.activeTabId !== now.activeTabId);
    if (opened && now.activeTabId) tabs.activated(now.activeTabId);
  };
  state.channel.on('hostState', changed);

  const permitted = (what: string) => {
    if (!state.granted.includes('presets')) throw frameError('PERMISSION_DENIED', `PERMISSION_DENIED:presets — preset editor ${what} requires the presets permission`);
  };
  const editing = (): PresetDraft => {
    permitted('operation');
    return current() ?? (() => { throw frameError('PRESET_EDITOR_CLOSED', 'PRESET_EDITOR_CLOSED: Preset editor is not open or has no selected preset'); })();
  };
  const updatePreset = (mutator: (draft: PresetDraft) => unknown, options: { immediate?: boolean } = {}): void => {
    const latest = editing();
    if (typeof mutator !== 'function') throw frameError('INVALID_INPUT', 'updatePreset takes a function of the draft.');
    const next = checkedDraft(mutator(structuredClone(latest)), latest.id);
    if (same(next, latest)) return;
    if (!drafts.busy(latest.id)) bases.set(latest.id, { draft: structuredClone(latest), ...stored(latest.id) });
    drafts
      .change(latest.id, structuredClone(next), options?.immediate === true)
      .catch((err: unknown) => console.warn('[Council Workbench] The preset was not saved:', err))
      .finally(changed);
    changed();
  };
  const flush = async () => {
    editing();
    try {
      await drafts.flush();
    } finally {
      changed();
    }
  };
  // Stopping (a reload, a disable) saves what waits, as far as the channel still carries it.
  state.atTeardown(() => void drafts.flush().catch(() => undefined));

  const ownMetadata = (value: unknown) => {
    if (!isObject(value) || !plainJson(value)) throw frameError('PRESET_EDITOR_INVALID_METADATA', 'PRESET_EDITOR_INVALID_METADATA: Extension metadata must be a plain JSON object');
    if (LOOM_KEYS.has(state.extensionId) || state.extensionId.startsWith('_lumiverse_')) throw frameError('PRESET_EDITOR_RESERVED_METADATA_KEY', `PRESET_EDITOR_RESERVED_METADATA_KEY: ${state.extensionId}`);
    return value;
  };
  const writeOwn = (value: Json, options?: { immediate?: boolean }) => updatePreset((draft) => ({ ...draft, metadata: { ...draft.metadata, [state.extensionId]: structuredClone(value) } }), options);
  const extension = {
    getState: () => (permitted('extension helper'), scopedSnapshot()),
    onChange(handler: (snapshot: unknown) => void): () => void {
      permitted('extension helper');
      scopedHandlers.add(handler);
      return () => void scopedHandlers.delete(handler);
    },
    setMetadata: (value: Json, options?: { immediate?: boolean }) => writeOwn(ownMetadata(value), options),
    updateMetadata: (mutator: (current: unknown) => Json, options?: { immediate?: boolean }) => writeOwn(ownMetadata(mutator(structuredClone(editing().metadata[state.extensionId]))), options),
    activateBuiltinTab(tab: string): void {
      if (tab !== 'blocks') throw frameError('PRESET_EDITOR_UNKNOWN_BUILTIN_TAB', `PRESET_EDITOR_UNKNOWN_BUILTIN_TAB:${String(tab).slice(0, 60)}`);
      // The blocks show beside every tab here: nothing to switch to.
      editing();
    },
    flush,
  };
  const helper = {
    getState: () => (permitted('operation'), snapshot()),
    onChange(handler: (snapshot: unknown) => void): () => void {
      permitted('operation');
      changeHandlers.add(handler);
      return () => void changeHandlers.delete(handler);
    },
    updatePreset,
    flush,
    get extension() {
      permitted('extension helper');
      return extension;
    },
  };

  const registerTab = (options: Json = {}) => {
    permitted('operation');
    return tabs.register(options);
  };

  let toolbarItems = 0;
  const registerToolbarItem = (options: Json = {}) => {
    permitted('operation');
    if (toolbarItems >= LIMITS.toolbarItems) throw frameError('INPUT_TOO_LARGE', `Preset editor toolbar item limit reached (max ${LIMITS.toolbarItems} per extension)`);
    toolbarItems++;
    const s = openSurface(state, 'mount', { point: 'preset_editor_toolbar', tooltip: clip('tooltip', options.ariaLabel ?? options.id ?? 'Tool') });
    return {
      root: s.root,
      itemId: `spindle:${state.extensionId}:preset-editor-toolbar:${String(options.id ?? 'item').slice(0, 60)}:${s.surfaceId}`,
      setVisible: (visible: boolean) => s.update({ visible: visible !== false }),
      destroy: () => {
        if (s.isClosed()) return;
        s.close();
        toolbarItems--;
      },
    };
  };

  return { helper, registerTab, registerToolbarItem };
}
