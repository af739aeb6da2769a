// The shell's sections: order, labels, shortcuts and what each shows while it is empty. Plain data.

export type SectionId = 'council' | 'tools' | 'extensions' | 'sidecar' | 'connections' | 'workbench' | 'mcp' | 'safety';

export interface SectionSpec {
  id: SectionId;
  label: string;
  /** One line under the heading: what this section is for. */
  summary: string;
  empty: {
    title: string;
    /** What will appear here. */
    body: string;
    /** What to do to make it appear. */
    steps: string[];
  };
}

export const SECTIONS: readonly SectionSpec[] = [
  {
    id: 'council',
    label: 'Council',
    summary: 'The personas that deliberate, their roles, and the tools each may call.',
    empty: {
      title: 'No council members yet',
      body: 'Council members appear here: each persona with its role, its chance to speak and the tools it may call.',
      steps: [
        'Add a member from a persona pack and give it a role.',
        'Open its Tools and tick the ones it may call (see them all in the Tools section).',
        'Turn on council mode to let members weigh in on every turn.',
      ],
    },
  },
  {
    id: 'tools',
    label: 'Tools',
    summary: 'Every tool the host knows, where it comes from, and its argument schema.',
    empty: {
      title: 'No tools registered',
      body: 'Tools registered by extensions, built-ins and MCP servers appear here, with their schemas and the council members allowed to call them.',
      steps: [
        'Enable an extension in Extensions, or add a server in MCP servers.',
        'Its tools show up here as soon as the host accepts their registration.',
      ],
    },
  },
  {
    id: 'extensions',
    label: 'Extensions',
    summary: 'Installed extensions, the permissions they hold and the worker each runs in.',
    empty: {
      title: 'No extensions installed',
      body: 'Installed extensions appear here with their status, the permissions they ask for and the tools they register. Each one runs in its own worker process.',
      steps: [
        'Install one from its folder with the form below, granting only what it needs.',
        'Check that it is running, then find its tools in the Tools section.',
      ],
    },
  },
  {
    id: 'sidecar',
    label: 'Sidecar',
    summary: 'The secondary model council tools think with.',
    empty: {
      title: 'Sidecar model not configured',
      body: 'The sidecar LLM settings appear here: the connection and model council tools use, with temperature, top P and max tokens.',
      steps: ['Add an LLM connection in Connections.', 'Choose it here as the sidecar and pick a model.'],
    },
  },
  {
    id: 'connections',
    label: 'Connections',
    summary: 'LLM providers the host can reach.',
    empty: {
      title: 'No connections yet',
      body: 'LLM provider connections appear here, with their health and the models they offer. API keys stay in the host and never reach this window.',
      steps: ['Add an OpenAI-compatible endpoint or a local server.', 'Test it, then use it for the sidecar or the council.'],
    },
  },
  {
    id: 'workbench',
    label: 'Workbench',
    summary: 'Chat with a character, with the council deliberating, and watch every token and tool call.',
    empty: {
      title: 'No chat sessions yet',
      body: 'Chat sessions appear here: a character, your persona and world info, and a conversation whose replies stream in token by token, with each tool call and the council’s deliberation shown as it happens.',
      steps: ['Add a connection in Connections and choose it as the chat’s main connection.', 'Start a new session here (or import one) and send a message.'],
    },
  },
  {
    id: 'mcp',
    label: 'MCP servers',
    summary: 'Model Context Protocol servers whose tools the host can call: how each starts, its status, its tools and its log.',
    empty: {
      title: 'No MCP servers yet',
      body: 'MCP servers appear here: how each one starts (a program and its arguments, or a URL), whether it is connected, the tools it offers and its log. Their tools join the Tools section as mcp-<id>:<tool>.',
      steps: [
        'Add a server with the form, or paste the mcpServers JSON another MCP app uses.',
        'Connect it and look through its tools; trust it only if you believe its read-only hints.',
      ],
    },
  },
  {
    id: 'safety',
    label: 'Safety',
    summary: 'Approvals before tools change things, dry runs, tools you always allow, and the paths the Workbench may touch.',
    empty: {
      title: 'Nothing is waiting for approval',
      body: 'When a tool call needs your approval, a dialog opens over any section with the exact arguments and, for note edits, the change it would make. Tools you always allow are listed here.',
      steps: [
        'Choose whether every write tool asks first, and whether runs simulate writes by default.',
        'Limit the notes the Workbench may read and write (council members have their own lists in Council).',
        'Answer “Always allow” in an approval to list a tool here; revoke it any time.',
      ],
    },
  },
];

export const DEFAULT_SECTION: SectionId = 'council';

export function sectionById(id: SectionId): SectionSpec {
  const found = SECTIONS.find((s) => s.id === id);
  if (!found) throw new Error(`unknown section ${id}`);
  return found;
}
