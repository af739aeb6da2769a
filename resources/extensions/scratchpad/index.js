/* global spindle */
// Scratchpad: council members append notes to notes.md in the extension's storage (a write tool) and read them back.

const NOTES_FILE = 'notes.md';
const MAX_NOTE_CHARS = 4000;
const MAX_FILE_BYTES = 1024 * 1024;

function fail(message, code, hint) {
  return Object.assign(new Error(message), { code, hint });
}

function formatNote(args, councilMember) {
  const text = typeof args.text === 'string' ? args.text.trim() : '';
  if (text === '') throw fail('The note is empty.', 'EMPTY_NOTE', 'Pass the note in "text".');
  if (text.length > MAX_NOTE_CHARS) {
    throw fail(`The note is ${text.length} characters; the limit is ${MAX_NOTE_CHARS}.`, 'NOTE_TOO_LONG', 'Split it or summarise it.');
  }
  const author = councilMember ? `${councilMember.name}${councilMember.role ? ` (${councilMember.role})` : ''}` : 'assistant';
  const topic = typeof args.topic === 'string' && args.topic.trim() ? ` — ${args.topic.trim().slice(0, 120)}` : '';
  return `## ${new Date().toISOString()} · ${author}${topic}\n\n${text}\n\n`;
}

async function readFile() {
  try {
    return await spindle.storage.read(NOTES_FILE);
  } catch (err) {
    if (err.code === 'NOT_FOUND') return '';
    throw err;
  }
}

async function readEntries() {
  return (await readFile()).split(/^(?=## )/m).filter((entry) => entry.startsWith('## '));
}

// Appends run one after another: each reads the file and writes it back whole.
let appending = Promise.resolve();
function append(note) {
  const run = appending.then(async () => {
    const content = await readFile();
    if (Buffer.byteLength(content) + Buffer.byteLength(note) > MAX_FILE_BYTES) {
      throw fail('The scratchpad is full (1 MB).', 'SCRATCHPAD_FULL', 'Ask the user to archive or clear notes.md in the extension data folder.');
    }
    await spindle.storage.write(NOTES_FILE, content + note);
    return (content + note).split(/^(?=## )/m).filter((entry) => entry.startsWith('## ')).length;
  });
  appending = run.catch(() => undefined);
  return run;
}

spindle.registerTool({
  name: 'append_note',
  display_name: 'Append to Scratchpad',
  description:
    'Appends a short note to the shared scratchpad (plot threads, promises made, clues, open questions) so later turns can recall it. Use for facts worth remembering, not for chatter.',
  parameters: {
    type: 'object',
    properties: {
      text: { type: 'string', description: 'The note, in one or a few sentences', maxLength: MAX_NOTE_CHARS },
      topic: { type: 'string', description: 'Optional short topic, e.g. "clue" or "promise"', maxLength: 120 },
    },
    required: ['text'],
  },
  council_eligible: true,
  mode: 'write',
  requires_approval: true,
  has_simulate: true,
});

spindle.registerTool({
  name: 'read_notes',
  display_name: 'Read Scratchpad',
  description: 'Returns the most recent notes from the shared scratchpad, newest last.',
  parameters: {
    type: 'object',
    properties: {
      last: { type: 'number', description: 'How many of the latest notes to return', default: 10, minimum: 1, maximum: 50 },
    },
  },
  council_eligible: true,
  mode: 'read',
});

async function readNotes(args) {
  const last = Math.max(1, Math.min(50, Math.floor(Number(args.last) || 10)));
  const entries = await readEntries();
  if (entries.length === 0) return 'The scratchpad is empty.';
  return entries.slice(-last).join('').trim();
}

spindle.on('TOOL_INVOCATION', async (payload) => {
  const { toolName, args, councilMember } = payload;
  if (toolName === 'append_note') {
    const count = await append(formatNote(args, councilMember));
    return `Noted (${count} ${count === 1 ? 'note' : 'notes'} on the scratchpad).`;
  }
  if (toolName === 'read_notes') return readNotes(args);
  return 'Unknown tool';
});

// Dry run for the approval preview: show what would be written, write nothing.
spindle.on('TOOL_SIMULATION', async (payload) => {
  const { toolName, args, councilMember } = payload;
  if (toolName === 'append_note') return `Would append to notes.md:\n\n${formatNote(args, councilMember)}`;
  if (toolName === 'read_notes') return readNotes(args);
  return 'Unknown tool';
});
