// What an inert read answers where the Workbench has nothing: the empty value of the type Lumiverse's spindle
// types declare for it (lumiverse-spindle-types 0.6.20), so code that reads a field of the answer
// (`(await spindle.dlc.getCatalog()).lumiaItems.filter(…)`) works on an empty answer as on a real one.

export const EMPTY_ANSWERS = {
  /** LumiaDlcCatalogDTO: six lists. */
  catalog: () => ({ packs: [], lumiaItems: [], narrativeStyles: [], utilities: [], retrofits: [], tools: [] }),
  /** ThemeInfoDTO: the Workbench's own look, in Lumiverse's terms. */
  theme: () => ({ id: 'council-workbench', name: 'Council Workbench', mode: 'dark', accent: { h: 262, s: 60, l: 62 }, enableGlass: false, radiusScale: 1, fontScale: 1, uiScale: 1, characterAware: false }),
  /** WebSearchSettingsDTO: switched off. */
  webSearchSettings: () => ({
    enabled: false,
    provider: 'searxng',
    apiUrl: '',
    requestTimeoutMs: 0,
    defaultResultCount: 0,
    maxResultCount: 0,
    maxPagesToScrape: 0,
    maxCharsPerPage: 0,
    language: '',
    safeSearch: 0,
    engines: [],
    hasApiKey: false,
  }),
  pushStatus: () => ({ available: false, subscriptionCount: 0 }),
  /** SpindleUserRoleDTO: the Workbench's one local user runs it. */
  role: () => 'operator',
} as const;

export type EmptyAnswer = keyof typeof EMPTY_ANSWERS;
