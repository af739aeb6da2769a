// The small line-icon set the shell uses: inline SVG elements built by React (no markup strings).
import type { SectionId } from '../app/sections';

export type IconName = SectionId | 'info' | 'warning' | 'error' | 'close' | 'logo' | 'folder' | 'refresh' | 'sun' | 'moon' | 'monitor'
  | 'copy' | 'play' | 'plus' | 'trash' | 'search' | 'check' | 'terminal' | 'power' | 'edit' | 'branch';

const PATHS: Record<IconName, string[]> = {
  edit: ['M4 20h4L19 9l-4-4L4 16Z', 'M13.5 6.5l4 4'],
  branch: ['M6 3v12', 'M18 9a3 3 0 1 0 0-6 3 3 0 0 0 0 6Z', 'M6 21a3 3 0 1 0 0-6 3 3 0 0 0 0 6Z', 'M18 9a9 9 0 0 1-9 9'],
  council: [
    'M9 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6Z',
    'M3 20v-1a5 5 0 0 1 5-5h2a5 5 0 0 1 5 5v1',
    'M16 5.2a3 3 0 0 1 0 5.6',
    'M18 14.2a5 5 0 0 1 3 4.8v1',
  ],
  tools: ['M14.7 6.3a4 4 0 0 0-5.4 5.1L3.6 17.1a1.9 1.9 0 0 0 2.7 2.7l5.7-5.7a4 4 0 0 0 5.1-5.4l-2.6 2.6-2.3-.4-.4-2.3Z'],
  extensions: [
    'M10 3.5a1.8 1.8 0 0 1 3.5 0V5H17a1 1 0 0 1 1 1v3.5h1.5a1.8 1.8 0 0 1 0 3.5H18V19a1 1 0 0 1-1 1h-3.5v-1.5a1.8 1.8 0 0 0-3.5 0V20H6a1 1 0 0 1-1-1v-3.5h1.5a1.8 1.8 0 0 0 0-3.5H5V6a1 1 0 0 1 1-1h4Z',
  ],
  sidecar: ['M7 7h10v10H7Z', 'M10 10h4v4h-4Z', 'M10 3v4', 'M14 3v4', 'M10 17v4', 'M14 17v4', 'M3 10h4', 'M3 14h4', 'M17 10h4', 'M17 14h4'],
  connections: ['M9 7V3', 'M15 7V3', 'M6 7h12v4a6 6 0 0 1-12 0Z', 'M12 17v4'],
  workbench: ['M4 5h16v14H4Z', 'M8 10l2.5 2L8 14', 'M13 14h3'],
  mcp: ['M4 4h16v6H4Z', 'M4 14h16v6H4Z', 'M8 7h.01', 'M8 17h.01', 'M12 10v4'],
  safety: ['M12 3 5 6v5c0 4.5 3 8.5 7 10 4-1.5 7-5.5 7-10V6Z', 'M9 12l2 2 4-4'],
  info: ['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18Z', 'M12 11v5', 'M12 8h.01'],
  warning: ['M10.3 4.2 2.6 17.5A2 2 0 0 0 4.3 20.5h15.4a2 2 0 0 0 1.7-3L13.7 4.2a2 2 0 0 0-3.4 0Z', 'M12 9v4', 'M12 17h.01'],
  error: ['M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18Z', 'M15 9l-6 6', 'M9 9l6 6'],
  close: ['M6 6l12 12', 'M18 6 6 18'],
  logo: ['M12 3 4 7.5v9L12 21l8-4.5v-9Z', 'M12 12 4 7.5', 'M12 12l8-4.5', 'M12 12v9'],
  folder: ['M3 6.5A1.5 1.5 0 0 1 4.5 5H9l2 2h8.5A1.5 1.5 0 0 1 21 8.5v9a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 17.5Z'],
  refresh: ['M20 11a8 8 0 0 0-14.6-4.5L4 8', 'M4 4v4h4', 'M4 13a8 8 0 0 0 14.6 4.5L20 16', 'M20 20v-4h-4'],
  sun: ['M12 16a4 4 0 1 0 0-8 4 4 0 0 0 0 8Z', 'M12 2v2', 'M12 20v2', 'M4.9 4.9l1.4 1.4', 'M17.7 17.7l1.4 1.4', 'M2 12h2', 'M20 12h2', 'M4.9 19.1l1.4-1.4', 'M17.7 6.3l1.4-1.4'],
  moon: ['M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5Z'],
  monitor: ['M3 5h18v11H3Z', 'M8 20h8', 'M12 16v4'],
  copy: ['M9 9h10v11H9Z', 'M15 9V5a1 1 0 0 0-1-1H6a1 1 0 0 0-1 1v10a1 1 0 0 0 1 1h3'],
  play: ['M7 5v14l11-7Z'],
  plus: ['M12 5v14', 'M5 12h14'],
  trash: ['M4 7h16', 'M10 11v6', 'M14 11v6', 'M6 7l1 12a1 1 0 0 0 1 1h8a1 1 0 0 0 1-1l1-12', 'M9 7V4h6v3'],
  search: ['M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14Z', 'M20 20l-4-4'],
  check: ['M5 12.5 10 17l9-10'],
  terminal: ['M4 5h16v14H4Z', 'M8 10l2.5 2L8 14', 'M13 14h3'],
  power: ['M12 3v8', 'M6.3 6.8a8 8 0 1 0 11.4 0'],
};

export function Icon(props: { name: IconName; className?: string }) {
  return (
    <svg
      className={props.className ? `icon ${props.className}` : 'icon'}
      viewBox="0 0 24 24"
      width="16"
      height="16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.75"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {PATHS[props.name].map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
}
