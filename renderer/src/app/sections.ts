// The shell's six sections: order, labels, shortcuts and what each shows while it is empty. Plain data.

export type SectionId = 'council' | 'tools' | 'extensions' | 'sidecar' | 'connections' | 'workbench';

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
        'Enable an extension in Extensions, or add an MCP server in Connections.',
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
    summary: 'LLM providers and MCP servers the host can reach.',
    empty: {
      title: 'No connections yet',
      body: 'LLM provider connections and MCP servers appear here, with their health and the models or tools they offer. API keys stay in the host and never reach this window.',
      steps: ['Add an OpenAI-compatible endpoint, a local server or an MCP server.', 'Test it, then use it for the sidecar or the council.'],
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
];

export const DEFAULT_SECTION: SectionId = 'council';

export function sectionById(id: SectionId): SectionSpec {
  const found = SECTIONS.find((s) => s.id === id);
  if (!found) throw new Error(`unknown section ${id}`);
  return found;
}
