// Lumiverse's character and preset editors as a frontend reaches them (ctx.ui.registerCharacterEditorTab,
// ctx.ui.characterEditor, and their preset twins). The Workbench's character editor is a session's "Character & world":
// an extension granted characters puts a tab there (a place of its own, shown under it), hears the editor's state —
// open, the character, its card's whole `extensions` — from what the app tells it, and saves the card's extensions
// with updateExtensions, after 2 s or at once with { immediate: true }, as Lumiverse does (editor-drafts.ts). The preset
// editor is preset-editor.ts.
import type { CharacterEditorState } from '../../shared/frames/host-state';
import { EditorDrafts } from './editor-drafts';
import { createPresetEditor } from './preset-editor';
import { frameError } from './channel';
import type { RuntimeState } from './runtime-state';
import { editorTabs } from './editor-tabs';
import { tellEach } from './tell-each';

const CLOSED: CharacterEditorState = { open: false, characterId: null, activeSurfaceId: null, extensions: {} };
type Extensions = Record<string, unknown>;
/** How long Lumiverse waits before saving a changed card's extensions. */
export const EXTENSIONS_SAVE_DELAY_MS = 2000;
const isRecord = (value: unknown): value is Extensions => typeof value === 'object' && value !== null && !Array.isArray(value);

function characterEditor(state: RuntimeState) {
  // Every extension's tab shows at once under the character: there is no other to switch from.
  const tabs = editorTabs(state, { kind: 'character', activate: () => undefined });
  const changeHandlers = new Set<(snapshot: unknown) => void>();
  const told = () => state.hostState.characterEditor ?? CLOSED;
  const toldCard = () => ({ id: told().characterId, value: told().extensions });
  const drafts = new EditorDrafts<Extensions>((characterId, extensions) => state.channel.request('host.call', { method: 'characters.update', args: [characterId, { extensions }] }), toldCard, { delayMs: EXTENSIONS_SAVE_DELAY_MS });
  const snapshot = () => {
    const editor = told();
    const extensions = drafts.current(toldCard());
    return { open: editor.open, characterId: editor.characterId, activeTabId: tabs.tabIdOf(editor.activeSurfaceId) ?? null, extensions: structuredClone(extensions) };
  };
  let last = JSON.stringify(snapshot());
  const changed = () => {
    const now = snapshot();
    const said = JSON.stringify(now);
    if (said === last) return;
    const before = JSON.parse(last) as { open: boolean; activeTabId: string | null };
    last = said;
    tellEach(changeHandlers, () => structuredClone(now));
    // A tab becoming the shown one, as a click on it does in Lumiverse.
    if (now.open && now.activeTabId && (!before.open || before.activeTabId !== now.activeTabId)) tabs.activated(now.activeTabId);
  };
  state.channel.on('hostState', changed);

  const editing = (operation: string) => {
    if (!state.granted.includes('characters')) throw frameError('PERMISSION_DENIED', `PERMISSION_DENIED:characters — characterEditor.${operation} needs the characters permission.`);
    const editor = told();
    if (!editor.open || !editor.characterId) throw frameError('CHARACTER_EDITOR_CLOSED', `CHARACTER_EDITOR_CLOSED: no character editor is open (characterEditor.${operation}).`);
    return editor as CharacterEditorState & { characterId: string };
  };
  const updateExtensions = (mutator: (extensions: Extensions) => Extensions | void, options: { immediate?: boolean } = {}): Promise<void> => {
    const editor = editing('updateExtensions');
    const draft = structuredClone(drafts.current({ id: editor.characterId, value: editor.extensions }));
    const returned = mutator(draft);
    const next = returned === undefined ? draft : returned;
    if (!isRecord(next)) throw frameError('INVALID_INPUT', "updateExtensions: the mutator gives the card's extensions object.");
    const saving = drafts.change(editor.characterId, structuredClone(next), options?.immediate === true);
    changed();
    return saving;
  };
  // Stopping (a reload, a disable) saves what waits, as far as the channel still carries it.
  state.atTeardown(() => void drafts.flush().catch(() => undefined));

  const helper = {
    getState: snapshot,
    onChange(handler: (snapshot: unknown) => void): () => void {
      changeHandlers.add(handler);
      return () => void changeHandlers.delete(handler);
    },
    updateExtensions,
    setExtensions: (extensions: Extensions, options?: { immediate?: boolean }) => updateExtensions(() => structuredClone(extensions), options),
    flush: () => drafts.flush(),
  };

  const registerTab = (options: Record<string, unknown> = {}) => {
    state.require('characters', 'ctx.ui.registerCharacterEditorTab');
    return tabs.register(options);
  };
  return { helper, registerTab };
}

export function createEditors(state: RuntimeState) {
  const character = characterEditor(state);
  const preset = createPresetEditor(state);
  return {
    registerCharacterEditorTab: character.registerTab,
    characterEditor: character.helper,
    registerPresetEditorTab: preset.registerTab,
    registerPresetEditorToolbarItem: preset.registerToolbarItem,
    presetEditor: preset.helper,
  };
}
