/* global spindle */
// Knowledge Base: searches the markdown notes in ./docs and answers in the council member's voice (Spindle seed 000).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DOCS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'docs');
const STOPWORDS = new Set(
  'a an and are as at be by for from has have how in is it its of on or the to was what when where which who why with about does did do tell me'.split(' '),
);

/** Splits every docs/*.md file into sections: { source, title, text }. */
function loadSections() {
  const sections = [];
  for (const file of fs.readdirSync(DOCS_DIR).filter((f) => f.endsWith('.md')).sort()) {
    const lines = fs.readFileSync(path.join(DOCS_DIR, file), 'utf8').split(/\r?\n/);
    let docTitle = file.replace(/\.md$/, '');
    let current = null;
    for (const line of lines) {
      const h1 = /^#\s+(.+)/.exec(line);
      const h2 = /^##\s+(.+)/.exec(line);
      if (h1 && !h2) {
        docTitle = h1[1].trim();
      } else if (h2) {
        current = { source: file, title: `${docTitle}: ${h2[1].trim()}`, text: '' };
        sections.push(current);
      } else if (current && line.trim() !== '') {
        current.text += (current.text ? ' ' : '') + line.trim();
      }
    }
  }
  return sections;
}

const SECTIONS = loadSections();

function terms(text) {
  return String(text)
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((t) => t.length > 1 && !STOPWORDS.has(t));
}

function countOf(haystack, term) {
  let count = 0;
  for (const word of haystack) if (word === term || (term.length > 3 && word.startsWith(term))) count++;
  return count;
}

/** First sentences of a section, up to about 300 characters. */
function excerpt(text) {
  const sentences = text.match(/[^.!?]+[.!?]+/g) ?? [text];
  let out = '';
  for (const sentence of sentences) {
    if (out && out.length + sentence.length > 300) break;
    out += sentence;
  }
  return out.trim();
}

async function searchMyKnowledgeBase(query, limit = 5) {
  const wanted = terms(query);
  if (wanted.length === 0) return [];
  const max = Math.max(1, Math.min(20, Math.floor(Number(limit) || 5)));
  return SECTIONS.map((section) => {
    const title = terms(section.title);
    const body = terms(section.text);
    let score = 0;
    let matched = 0;
    for (const term of wanted) {
      const hits = 3 * countOf(title, term) + countOf(body, term);
      if (hits > 0) matched++;
      score += hits;
    }
    // Sections that match more of the query's words rank first.
    return { section, score: score + matched * 10, matched };
  })
    .filter((r) => r.matched > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, max)
    .map(({ section }) => ({
      title: section.title,
      source: section.source,
      summary: `- ${section.title} — ${excerpt(section.text)} [${section.source}]`,
    }));
}

spindle.registerTool({
  name: 'search_knowledge_base',
  display_name: 'Search Knowledge Base',
  description: 'Searches the extension knowledge base for relevant information',
  parameters: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'Search query' },
      limit: { type: 'number', description: 'Max results', default: 5 },
    },
    required: ['query'],
  },
  council_eligible: true,
  mode: 'read',
});

spindle.on('TOOL_INVOCATION', async (payload) => {
  const { toolName, args, councilMember } = payload;

  if (toolName === 'search_knowledge_base') {
    // Called as Lumiverse calls council tools (no planned arguments): search for the latest message instead.
    const lastMessage = Array.isArray(payload.contextMessages) ? payload.contextMessages.filter((m) => m.role === 'user').pop()?.content : undefined;
    const query = typeof args.query === 'string' && args.query.trim() ? args.query : String(lastMessage ?? args.context ?? '').slice(-300);
    const results = await searchMyKnowledgeBase(query, args.limit);
    if (results.length === 0) {
      const none = `No entries in the knowledge base match "${query}".`;
      return councilMember ? `${councilMember.name} (${councilMember.role || 'analyst'}) reports:\n${none}` : none;
    }

    // When invoked via council, tailor the output to the assigned member's voice
    if (councilMember) {
      return `${councilMember.name} (${councilMember.role || 'analyst'}) reports:\n` + results.map((r) => r.summary).join('\n');
    }

    return results.map((r) => r.summary).join('\n');
  }

  return 'Unknown tool';
});

spindle.log.info(`Knowledge base loaded: ${SECTIONS.length} sections.`);
