// What Lumiverse's spindle types (lumiverse-spindle-types 0.6.20, src/spindle-api.ts, api.ts, memories.ts)
// declare that each read of the members the Workbench keeps inert (and of presets and memories, which the host
// answers) resolves to — written down here independently of shared/spindle/members.ts, so the conformance test
// compares the two.
//
// Kinds: 'page' ({ data: [], total }), 'array', 'nullable' (an object or null), 'boolean', 'string',
// 'number', 'void' (resolves to nothing), 'record' (an object of any keys), a list of allowed
// literals, or an object spec whose fields have kinds of their own.
export type Declared = 'page' | 'array' | 'nullable' | 'boolean' | 'string' | 'number' | 'void' | 'record' | readonly string[] | { readonly [field: string]: Declared };

const ACCENT = { h: 'number', s: 'number', l: 'number' } as const;

export const DECLARED_READS: Record<string, Declared> = {
  'databanks.list': 'page',
  'databanks.get': 'nullable',
  'databanks.documents.list': 'page',
  'databanks.documents.get': 'nullable',
  'databanks.documents.getContent': 'nullable',
  'global_addons.list': 'page',
  'global_addons.get': 'nullable',
  'events.track': 'void',
  'events.query': 'array',
  'events.replay': 'array',
  'events.getLatestState': 'record',
  'theme.getCurrent': { id: 'string', name: 'string', mode: ['light', 'dark'], accent: ACCENT, enableGlass: 'boolean', radiusScale: 'number', fontScale: 'number', uiScale: 'number', characterAware: 'boolean' },
  'theme.apply': 'void',
  'theme.applyPalette': 'void',
  'theme.clear': 'void',
  'frontendProcesses.list': 'array',
  'frontendProcesses.get': 'nullable',
  'oauth.getCallbackUrl': 'string',
  'webSearch.getSettings': {
    enabled: 'boolean',
    provider: 'string',
    apiUrl: 'string',
    requestTimeoutMs: 'number',
    defaultResultCount: 'number',
    maxResultCount: 'number',
    maxPagesToScrape: 'number',
    maxCharsPerPage: 'number',
    language: 'string',
    safeSearch: 'number',
    engines: 'array',
    hasApiKey: 'boolean',
  },
};

/** The same, for the reads the host answers with the Workbench's own data (spindle.presets, spindle.regex_scripts, spindle.memories, spindle.imageGen, spindle.push). */
export const DECLARED_HOST_READS: Record<string, Declared> = {
  'dlc.getCatalog': { packs: 'array', lumiaItems: 'array', narrativeStyles: 'array', utilities: 'array', retrofits: 'array', tools: 'array' },
  'push.getStatus': { available: 'boolean', subscriptionCount: 'number' },
  // Whether a Workbench window is in view; the person owns the app.
  'users.isVisible': 'boolean',
  'users.getRole': ['operator', 'admin', 'user'],
  // The Workbench's places under Lumiverse's tab ids; it has no settings tabs.
  'ui.getDrawerTabs': 'array',
  'ui.getSettingsTabs': 'array',
  // Answered from the person's image connections (none here: empty, and null for one it has not).
  'imageGen.getProviders': 'array',
  'imageGen.listConnections': 'array',
  'imageGen.getConnection': 'nullable',
  'imageGen.getModels': 'array',
  'presets.list': 'page',
  // UserPresetDTO (read with a preset that exists).
  'presets.get': { id: 'string', name: 'string', provider: 'string', engine: 'string', parameters: 'record', prompt_order: 'array', prompts: 'record', metadata: 'record', cache_revision: 'number', created_at: 'number', updated_at: 'number' },
  'presets.blocks.list': 'array',
  // PromptBlockSnapshotDTO (read with a block that exists).
  'presets.blocks.get': {
    id: 'string',
    name: 'string',
    content: 'string',
    role: ['system', 'user', 'assistant', 'user_append', 'assistant_append'],
    enabled: 'boolean',
    position: ['pre_history', 'post_history', 'in_history'],
    depth: 'number',
    isLocked: 'boolean',
    injectionTrigger: 'array',
  },
  'presets.categories.list': 'array',
  'regex_scripts.list': 'page',
  'regex_scripts.getActive': 'array',
  // RegexScriptDTO (api.ts; read with a script that exists, one target).
  'regex_scripts.get': {
    id: 'string',
    can_mutate: 'boolean',
    name: 'string',
    script_id: 'string',
    find_regex: 'string',
    replace_string: 'string',
    flags: 'string',
    placement: 'array',
    scope: ['global', 'character', 'chat'],
    // The types name one string; Lumiverse's host sends its array (toRegexScriptDTO), which published extensions meet.
    target: 'array',
    trim_strings: 'array',
    run_on_edit: 'boolean',
    substitute_macros: ['none', 'find', 'raw', 'escaped', 'after'],
    disabled: 'boolean',
    sort_order: 'number',
    description: 'string',
    folder: 'string',
    metadata: 'record',
    created_at: 'number',
    updated_at: 'number',
  },
  'memories.cortex.getConfig': { enabled: 'boolean', entityTracking: 'boolean', entityExtractionMode: 'string', salienceScoring: 'boolean' },
  'memories.cortex.query': {
    memories: 'array',
    entityContext: 'array',
    activeRelationships: 'array',
    arcContext: 'nullable',
    stats: { candidatePoolSize: 'number', vectorSearchResults: 'number', entitiesMatched: 'number', scoreFusionApplied: 'boolean', topScore: 'number', retrievalTimeMs: 'number' },
  },
  'memories.cortex.getCached': 'nullable',
  'memories.cortex.queryLinked': { vaults: 'array', interlinks: 'array' },
  'memories.cortex.getCachedLinked': 'nullable',
  'memories.entities.list': 'array',
  // MemoryEntityDTO's fields that are never null (read with an entity that exists).
  'memories.entities.get': {
    id: 'string',
    chatId: 'string',
    name: 'string',
    entityType: ['character', 'location', 'item', 'faction', 'concept', 'event'],
    aliases: 'array',
    description: 'string',
    mentionCount: 'number',
    salienceAvg: 'number',
    status: ['active', 'inactive', 'deceased', 'destroyed', 'unknown'],
    facts: 'array',
    emotionalValence: 'record',
    metadata: 'record',
    createdAt: 'number',
    updatedAt: 'number',
    factExtractionStatus: ['never', 'attempted_empty', 'ok'],
    salienceBreakdown: { mentionComponent: 'number', arcComponent: 'number', graphComponent: 'number', total: 'number' },
    recentMentionCount: 'number',
    confidence: ['confirmed', 'provisional'],
  },
  'memories.entities.findByName': 'nullable',
  'memories.entities.getFacts': 'array',
  'memories.relations.list': 'array',
  'memories.relations.listAll': 'array',
  'memories.relations.forEntity': 'array',
  'memories.relations.forEntities': 'array',
  'memories.consolidations.list': 'array',
  'memories.consolidations.latestArc': 'nullable',
  'memories.salience.list': 'array',
  'memories.vaults.list': 'array',
  'memories.vaults.get': 'nullable',
  'memories.vaults.getChunks': 'array',
  'memories.links.list': 'array',
  'memories.chatMemory.listChunks': 'array',
  'memories.chatMemory.get': {
    chunks: 'array',
    formatted: 'string',
    count: 'number',
    enabled: 'boolean',
    queryPreview: 'string',
    settingsSource: ['global', 'per_chat'],
    chunksAvailable: 'number',
    chunksPending: 'number',
  },
  'memories.stats.usage': { entityCount: 'number', relationCount: 'number', salienceRecordCount: 'number', consolidationCount: 'number' },
  'memories.stats.ingestionStatus': 'nullable',
  'memories.stats.ingestionTelemetry': { samples: 'number', last: 'nullable', averages: { fontMs: 'number', heuristicMs: 'number', sidecarMs: 'number', graphMs: 'number', dbMs: 'number', totalMs: 'number' } },
};

/** Where `value` breaks `declared`, or null when it conforms. */
export function mismatch(value: unknown, declared: Declared, at = ''): string | null {
  const isObject = typeof value === 'object' && value !== null && !Array.isArray(value);
  if (Array.isArray(declared)) return declared.includes(value as string) ? null : `${at}: ${JSON.stringify(value)} is not one of ${declared.join(', ')}`;
  if (typeof declared === 'object') {
    if (!isObject) return `${at}: ${JSON.stringify(value)} is not an object`;
    for (const [field, kind] of Object.entries(declared)) {
      const problem = mismatch((value as Record<string, unknown>)[field], kind as Declared, `${at}.${field}`);
      if (problem) return problem;
    }
    return null;
  }
  const ok: Record<string, boolean> = {
    page: isObject && Array.isArray((value as { data?: unknown }).data) && typeof (value as { total?: unknown }).total === 'number',
    array: Array.isArray(value),
    nullable: value === null || isObject,
    boolean: typeof value === 'boolean',
    string: typeof value === 'string',
    number: typeof value === 'number',
    void: value === undefined,
    record: isObject,
  };
  return ok[declared] ? null : `${at}: ${JSON.stringify(value)} is not ${declared}`;
}
