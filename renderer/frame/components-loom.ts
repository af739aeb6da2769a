// ctx.components.mountLoomBlockEditor: Lumiverse's Loom block editor, in the extension's own frame. A list of the
// blocks (name, the start of its text, who speaks it; dimmed when off) and, for the block being edited, a form: name,
// role, where it goes, depth, text. Save hands the whole value to onChange; each keystroke hands the value with the
// unsaved edit to onDraftChange (null when the edit is left); opening or leaving a block is told to
// onSelectedBlockChange. update() never calls onChange, and a block being edited keeps what the person typed.
import { POSITION_LABELS, ROLE_LABELS } from '../../shared/spindle/prompt-block-fields';
import { frameError } from './channel';
import { callback, el, mountComponent } from './components-base';
import type { RuntimeState } from './runtime-state';

type Block = Record<string, unknown> & { id: string; name: string };
interface Value {
  blocks: Block[];
  promptVariableValues: Record<string, unknown>;
}
type Options = Record<string, unknown> & { value?: Value };

const ROLES = Object.entries(ROLE_LABELS);
const POSITIONS = Object.entries(POSITION_LABELS);
const PREVIEW_CHARS = 100;

/** The editor's value, checked and copied: blocks with an id and a name each. */
function checkedValue(value: unknown): Value {
  const v = value as Partial<Value> | null;
  if (!v || typeof v !== 'object' || !Array.isArray(v.blocks)) throw frameError('INVALID_INPUT', 'mountLoomBlockEditor: value must be { blocks, promptVariableValues }.');
  const at = v.blocks.findIndex((b) => !b || typeof b !== 'object' || typeof (b as Block).id !== 'string' || typeof (b as Block).name !== 'string');
  if (at >= 0) throw frameError('INVALID_INPUT', `Invalid Loom blocks[${at}]: a block has a string id and name.`);
  const variables = v.promptVariableValues && typeof v.promptVariableValues === 'object' ? v.promptVariableValues : {};
  return structuredClone({ blocks: v.blocks as Block[], promptVariableValues: variables });
}

export function loomBlockEditor(state: RuntimeState, target: unknown, options: Options | undefined) {
  let value = checkedValue(options?.value);
  /** The value option last read: an update() without a new one keeps what the person saved since. */
  let given = options?.value;
  let selected = typeof options?.selectedBlockId === 'string' ? options.selectedBlockId : null;
  /** The block the form was filled from, and the person's edit of it. */
  let editing: { from: string; draft: Block } | null = null;
  let redraw = () => undefined as void;
  const handle = mountComponent(state, 'mountLoomBlockEditor', target, options, (wrapper, current) => {
    const doc = wrapper.ownerDocument;
    const head = el(doc, 'div', { class: 'spc-head' });
    const body = el(doc, 'div');
    wrapper.append(head, body);
    const withDraft = (): Value => ({ ...structuredClone(value), blocks: value.blocks.map((b) => (editing && b.id === editing.draft.id ? structuredClone(editing.draft) : structuredClone(b))) });
    const select = (id: string | null) => {
      if (selected === id) return;
      if (editing) callback(current().onDraftChange, null);
      selected = id;
      editing = null;
      callback(current().onSelectedBlockChange, id);
      redraw();
    };
    const field = (label: string, control: HTMLElement) => el(doc, 'label', { class: 'spc-loom__field' }, el(doc, 'span', { class: 'spc-hint' }, label), control);

    const form = (block: Block) => {
      if (!editing || editing.from !== JSON.stringify(block)) editing = { from: JSON.stringify(block), draft: structuredClone(block) };
      const draft = editing.draft;
      const readOnly = current().readOnly === true;
      const problem = el(doc, 'p', { class: 'spc-hint', role: 'alert' });
      const edited = (key: string, v: unknown) => {
        draft[key] = v;
        callback(current().onDraftChange, withDraft());
      };
      const name = el(doc, 'input', { type: 'text', maxlength: '200' });
      name.value = String(draft.name);
      name.addEventListener('input', () => edited('name', name.value));
      const role = el(doc, 'select', {}, ...ROLES.map(([v, label]) => el(doc, 'option', { value: v }, label)));
      role.value = String(draft.role ?? 'system');
      role.addEventListener('change', () => edited('role', role.value));
      const position = el(doc, 'select', {}, ...POSITIONS.map(([v, label]) => el(doc, 'option', { value: v }, label)));
      position.value = String(draft.position ?? 'pre_history');
      const depth = el(doc, 'input', { type: 'number', min: '0', step: '1' });
      depth.value = String(draft.depth ?? 0);
      depth.addEventListener('input', () => edited('depth', Math.max(0, Math.floor(Number(depth.value) || 0))));
      const depthField = field('Depth', depth);
      const showDepth = () => void (depthField.hidden = position.value !== 'in_history' && !String(role.value).endsWith('_append'));
      position.addEventListener('change', () => (edited('position', position.value), showDepth()));
      role.addEventListener('change', showDepth);
      showDepth();
      const content = el(doc, 'textarea', { rows: '8' });
      content.value = String(draft.content ?? '');
      content.addEventListener('input', () => edited('content', content.value));
      for (const control of [name, role, position, depth, content]) control.disabled = readOnly;
      const back = el(doc, 'button', { type: 'button' }, 'Back');
      back.addEventListener('click', () => select(null));
      const save = el(doc, 'button', { type: 'submit' }, 'Save');
      save.hidden = readOnly;
      const f = el(doc, 'form', { class: 'spc-loom__form', 'aria-label': `Block ${block.name}` }, field('Name', name), el(doc, 'div', { class: 'spc-row' }, field('Role', role), field('Position', position), depthField), field('Content', content), problem, el(doc, 'div', { class: 'spc-row' }, save, back));
      f.addEventListener('submit', (event) => {
        event.preventDefault();
        if (current().readOnly === true) return;
        problem.textContent = String(draft.name).trim() ? '' : 'A block needs a name.';
        if (problem.textContent) return;
        value = withDraft();
        callback(current().onChange, structuredClone(value));
        select(null);
      });
      return f;
    };

    const list = () =>
      value.blocks.map((block) => {
        const text = String(block.content ?? '');
        const row = el(doc, 'div', { class: 'spc-loom__row', 'data-block-id': block.id }, el(doc, 'strong', {}, block.name), ' ', el(doc, 'span', { class: 'spc-badge' }, String(block.role ?? 'system')), el(doc, 'div', { class: 'spc-hint' }, text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text));
        if (block.enabled === false) row.style.opacity = '0.55';
        if (current().readOnly !== true) {
          const edit = el(doc, 'button', { type: 'button', 'aria-label': `Edit ${block.name}` }, 'Edit');
          edit.addEventListener('click', () => select(block.id));
          row.append(edit);
        }
        return row;
      });

    /** The form shown, kept while its block and readOnly are the same: an update() mid-edit leaves the typing and focus alone. */
    let shown: { key: string; node: HTMLFormElement } | null = null;
    redraw = () => {
      const block = selected === null ? undefined : value.blocks.find((b) => b.id === selected);
      // A block that is gone closes its form, and says so.
      if (selected !== null && !block) return select(null);
      head.textContent = `${value.blocks.length} block${value.blocks.length === 1 ? '' : 's'}`;
      if (block && editing && editing.from !== JSON.stringify(block)) {
        // The extension handed back the edit itself: the same form goes on. Anything else replaces the edit.
        if (JSON.stringify(block) === JSON.stringify(editing.draft)) {
          editing.from = JSON.stringify(block);
          if (shown) shown.key = `${editing.from}|${current().readOnly === true}`;
        } else callback(current().onDraftChange, null);
      }
      const key = block ? `${JSON.stringify(block)}|${current().readOnly === true}` : '';
      if (block && shown && editing && shown.key === key && body.contains(shown.node)) return;
      shown = block ? { key, node: form(block) } : null;
      body.replaceChildren(...(shown ? [shown.node] : list()));
    };
    return {
      render(o) {
        if (o.value !== given) {
          value = checkedValue(o.value);
          given = o.value;
        }
        redraw();
      },
      members: { getValue: () => structuredClone(value), refreshMacros: async () => undefined },
    };
  });
  const update = handle.update;
  return Object.assign(handle, {
    update(patch: Partial<Options>) {
      if (!patch || typeof patch !== 'object') return;
      if (patch.value !== undefined) checkedValue(patch.value);
      if ('selectedBlockId' in patch) {
        selected = typeof patch.selectedBlockId === 'string' ? patch.selectedBlockId : null;
        editing = null;
      }
      update(patch);
    },
  });
}
