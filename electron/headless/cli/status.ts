// `status`: where the data lives, the settings version and what is loaded.
import { callHost, type CliCommand } from './command';

export const statusCommand: CliCommand = {
  words: ['status'],
  usage: 'status',
  summary: 'Show the data folder, settings version and counts of extensions, built-in tools and members (`tools list` starts the extensions and lists theirs).',
  dataOnly: true,
  run: ({ host }) => callHost(host, 'host.status', {}),
  format(value) {
    const s = value as Awaited<ReturnType<typeof callHost<'host.status'>>>;
    const lines = [
      `Data folder:      ${s.dataDir}`,
      `Settings version: ${s.settingsVersion}`,
      `Extensions:       ${s.counts.extensions}`,
      s.toolSourcesStarted === false ? `Built-in tools:   ${s.counts.tools} (extensions' and MCP servers' tools: tools list)` : `Tools:            ${s.counts.tools}`,
      `Council members:  ${s.counts.members}`,
    ];
    for (const notice of s.notices) lines.push(`! ${notice.message}`);
    return lines.join('\n');
  },
};
