// The host theme's variables as Lumiverse extensions style with them (--lumiverse-text, --lumiverse-bg…),
// resolved from the Workbench's own tokens in the current light or dark scheme, for the extensions' frames.
const COLORS: Record<string, string> = {
  '--lumiverse-text': 'var(--text)',
  '--lumiverse-text-muted': 'var(--text-muted)',
  '--lumiverse-text-dim': 'var(--text-faint)',
  '--lumiverse-bg': 'var(--surface)',
  '--lumiverse-bg-elevated': 'var(--surface-2)',
  '--lumiverse-bg-deep': 'var(--bg)',
  '--lumiverse-bg-hover': 'var(--surface-hover)',
  '--lumiverse-border': 'var(--border)',
  '--lumiverse-border-hover': 'var(--border-strong)',
  '--lumiverse-primary': 'var(--accent)',
  '--lumiverse-accent': 'var(--accent)',
  '--lumiverse-primary-text': 'var(--accent-strong)',
  '--lumiverse-primary-contrast': 'var(--on-accent)',
  '--lumiverse-accent-fg': 'var(--on-accent)',
  '--lumiverse-primary-010': 'color-mix(in srgb, var(--accent) 10%, transparent)',
  '--lumiverse-primary-020': 'color-mix(in srgb, var(--accent) 20%, transparent)',
  '--lumiverse-primary-050': 'color-mix(in srgb, var(--accent) 50%, transparent)',
  '--lumiverse-fill-subtle': 'color-mix(in srgb, var(--text) 5%, transparent)',
  '--lumiverse-fill': 'color-mix(in srgb, var(--text) 8%, transparent)',
  '--lumiverse-fill-hover': 'color-mix(in srgb, var(--text) 12%, transparent)',
  '--lumiverse-danger': 'var(--danger)',
  '--lumiverse-success': 'var(--ok)',
  '--lumiverse-warning': 'var(--warn)',
  '--lcs-glass-bg': 'color-mix(in srgb, var(--surface) 70%, transparent)',
};

const FIXED: Record<string, string> = {
  '--lumiverse-radius-sm': '5px',
  '--lumiverse-radius': '8px',
  '--lumiverse-radius-md': '10px',
  '--lumiverse-radius-lg': '12px',
  '--lumiverse-radius-xl': '16px',
  '--lumiverse-transition-fast': '150ms ease',
  '--lumiverse-font-scale': '1',
  '--lumiverse-shadow-lg': '0 8px 24px rgb(0 0 0 / 0.25)',
};

/** The variables, resolved to plain values (frames cannot see the app's own tokens). */
export function lumiverseThemeVars(doc: Document = document): Record<string, string> {
  const probe = doc.createElement('span');
  probe.style.display = 'none';
  doc.body.appendChild(probe);
  const vars: Record<string, string> = { ...FIXED };
  const style = getComputedStyle(doc.documentElement);
  vars['--lumiverse-font-family'] = style.getPropertyValue('--font-ui').trim() || 'system-ui, sans-serif';
  vars['--lumiverse-font-mono'] = style.getPropertyValue('--font-mono').trim() || 'monospace';
  for (const [name, expression] of Object.entries(COLORS)) {
    probe.style.color = '';
    probe.style.color = expression;
    vars[name] = getComputedStyle(probe).color || '';
  }
  const scheme = doc.documentElement.dataset.theme;
  vars['color-scheme'] = scheme === 'light' || scheme === 'dark' ? scheme : 'light dark';
  probe.remove();
  return vars;
}
