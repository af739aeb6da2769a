// @vitest-environment real-core
// Adding, editing and importing MCP servers against the real core (in memory): arguments kept as a list, checks and
// the core's errors on the field they name, import errors. Servers that start run the stdio fixture, never a download.
import { afterEach, describe, expect, it } from 'vitest';
import { byLabel, byTestId, buttonNamed, cleanup, navButton, renderShell, settle, typeInto } from './harness';
import { disposeAllHosts, RealHost } from './real-host';
import { STDIO_FIXTURE } from './real-mcp';

import { XSS } from '../fixtures/xss-corpus';

declare global {
  interface Window {
    __pwned?: unknown;
  }
}

afterEach(async () => {
  cleanup();
  await disposeAllHosts();
  delete window.__pwned;
});

/** The MCP section on a core that already has `servers` (added with mcp.add). */
async function openSection(servers: Array<Record<string, unknown>> = []) {
  const host = await RealHost.start();
  for (const server of servers) await host.arrange('mcp.add', server as never);
  const rendered = await renderShell(host);
  await settle(() => navButton(rendered.container, 'MCP servers').click());
  return { ...rendered, panel: byTestId(rendered.container, 'panel-mcp') };
}

async function openForm(servers: Array<Record<string, unknown>> = []) {
  const opened = await openSection(servers);
  await settle(() => buttonNamed(opened.panel, 'Add server').click());
  return { ...opened, form: () => byTestId(opened.panel, 'mcp-form') };
}

async function submit(form: HTMLElement, label = 'Add server') {
  await settle(() => buttonNamed(form, label).click());
}

describe('add form', () => {
  it('says arguments are passed literally and that only the listed variables reach the server', async () => {
    const { form } = await openForm();
    expect(form().textContent).toContain('Arguments are passed literally, no shell');
    expect(form().textContent).toContain('Only these variables reach the server, plus PATH');
    expect(form().textContent).toContain('tools marked readOnlyHint run as read tools');
  });

  it('checks the id, the program and empty arguments before asking the host, and focuses the first problem', async () => {
    const { form, host } = await openForm();
    await settle(() => buttonNamed(form(), 'Add argument').click());
    await submit(form());
    expect(host.callsTo('mcp.add')).toHaveLength(0);
    expect(byTestId(form(), 'mcp-error-id').textContent).toContain('Give the server an id.');
    expect(byTestId(form(), 'mcp-error-command').textContent).toContain('Enter the program to run');
    expect(byTestId(form(), 'mcp-error-args.0').textContent).toContain('Argument 1 is empty');
    expect(document.activeElement).toBe(byLabel(form(), 'Id'));
    expect(byLabel(form(), 'Id').getAttribute('aria-invalid')).toBe('true');
    expect(byLabel(form(), 'Argument 1').getAttribute('aria-invalid')).toBe('true');

    await settle(() => typeInto(byLabel(form(), 'Id'), 'Bad Id!'));
    await submit(form());
    expect(byTestId(form(), 'mcp-error-id').textContent).toContain('lowercase letters');
  });

  it('derives the id from the name until the id is typed', async () => {
    const { form } = await openForm();
    await settle(() => typeInto(byLabel(form(), 'Name'), 'My GitHub Server'));
    expect(byLabel(form(), 'Id').value).toBe('my-github-server');
    await settle(() => typeInto(byLabel(form(), 'Id'), 'gh'));
    await settle(() => typeInto(byLabel(form(), 'Name'), 'GitHub'));
    expect(byLabel(form(), 'Id').value).toBe('gh');
  });

  it('sends the arguments as a list, one per field, exactly as typed, with env rows and the folder', async () => {
    const { form, host, panel } = await openForm();
    await settle(() => typeInto(byLabel(form(), 'Name'), 'Files'));
    await settle(() => typeInto(byLabel(form(), 'Program'), process.execPath));
    // The fixture takes its mode and ignores the rest; the last two are kept as typed, spaces and shell syntax included.
    const args = [STDIO_FIXTURE, '--mode', '/home/ada/my notes', '$HOME; rm -rf ~ | cat "x"'];
    for (const [i, arg] of args.entries()) {
      await settle(() => buttonNamed(form(), 'Add argument').click());
      await settle(() => typeInto(byLabel(form(), `Argument ${i + 1}`), arg));
    }
    // Reorder: the last one up, then back down.
    await settle(() => buttonNamed(form(), 'Move argument 4 up').click());
    expect(byLabel(form(), 'Argument 3').value).toBe(args[3]);
    await settle(() => buttonNamed(form(), 'Move argument 3 down').click());
    expect(byLabel(form(), 'Argument 4').value).toBe(args[3]);

    await settle(() => buttonNamed(form(), 'Add variable').click());
    await settle(() => typeInto(byLabel(form(), 'Variable 1 name'), 'NOTES_TOKEN'));
    await settle(() => typeInto(byLabel(form(), 'Variable 1 value'), 'abc'));
    await settle(() => typeInto(byLabel(form(), /^Working folder/), host.dataDir));
    await submit(form());

    expect(host.callsTo('mcp.add').map((c) => c.input)).toEqual([
      { id: 'files', name: 'Files', transport: 'stdio', command: process.execPath, args, env: { NOTES_TOKEN: 'abc' }, cwd: host.dataDir, trusted: false, enabled: true },
    ]);
    expect(host.core.mcp.get('files').config.args).toEqual(args);
    expect(panel.querySelector('[data-testid="mcp-form"]')).toBeNull();
    expect(byTestId(panel, 'mcp-saved-note').textContent).toContain('Added Files');
    // Focus goes back to the button that opened the form (now in the toolbar, not the empty state).
    await settle(() => new Promise((resolve) => setTimeout(resolve)));
    expect(document.activeElement?.textContent?.trim()).toBe('Add server');
    expect(panel.querySelector('[data-testid="mcp-server"][data-id="files"]')).not.toBeNull();
  });

  it('puts a host error on the field its path names: one argument, the id, a variable', async () => {
    const { form, host } = await openForm([{ id: 'files', transport: 'stdio', command: 'node', enabled: false }]);
    await settle(() => typeInto(byLabel(form(), 'Id'), 'files'));
    await settle(() => typeInto(byLabel(form(), 'Program'), 'node'));
    await submit(form());
    expect(byTestId(form(), 'mcp-error-id').textContent).toContain('already exists');
    expect(document.activeElement).toBe(byLabel(form(), 'Id'));

    await settle(() => typeInto(byLabel(form(), 'Id'), 'other'));
    await settle(() => buttonNamed(form(), 'Add argument').click());
    await settle(() => typeInto(byLabel(form(), 'Argument 1'), 'server.js'));
    await settle(() => buttonNamed(form(), 'Add argument').click());
    // The form runs the core's own config rules (shared/mcp-config.ts): an argument over 8192 characters is
    // refused on its field before anything is sent.
    await settle(() => typeInto(byLabel(form(), 'Argument 2'), 'x'.repeat(9000)));
    await submit(form());
    const argError = byTestId(form(), 'mcp-error-args.1');
    expect(argError.textContent).toBe('Must be at most 8192 characters.');
    expect(byLabel(form(), 'Argument 2').getAttribute('aria-invalid')).toBe('true');
    expect(byLabel(form(), 'Argument 1').getAttribute('aria-invalid')).toBeNull();
    expect(document.activeElement).toBe(byLabel(form(), 'Argument 2'));

    await settle(() => typeInto(byLabel(form(), 'Argument 2'), 'x'));
    await settle(() => buttonNamed(form(), 'Add variable').click());
    // The same rules for a variable's value.
    await settle(() => typeInto(byLabel(form(), 'Variable 1 name'), 'NOTES_TOKEN'));
    await settle(() => typeInto(byLabel(form(), 'Variable 1 value'), 'v'.repeat(9000)));
    await submit(form());
    expect(byTestId(form(), 'mcp-error-env').textContent).toBe('Must be at most 8192 characters.');
    expect(host.core.mcp.list().map((s) => s.config.id)).toEqual(['files']);

    // An error that names no field is shown for the whole form, with its code: the core cannot save its settings.
    await settle(() => typeInto(byLabel(form(), 'Variable 1 value'), 'abc'));
    host.breakSettingsWrites();
    await submit(form());
    const whole = byTestId(form(), 'inline-error');
    expect(whole.dataset.code).toBe('SETTINGS_WRITE_FAILED');
    expect(whole.textContent).toContain('Could not save settings: EISDIR');
    expect(whole.textContent).toContain('Check that the data folder is writable');
  });

  it('adds an HTTP server with a checked URL and headers, trusted when ticked', async () => {
    const { form, host } = await openForm();
    await settle(() => typeInto(byLabel(form(), 'Id'), 'remote'));
    await settle(() => byLabel(form(), 'Remote URL (Streamable HTTP)').click());
    expect(() => byLabel(form(), 'Program')).toThrow();
    await settle(() => typeInto(byLabel(form(), 'URL'), 'ftp://example.org/mcp'));
    await submit(form());
    expect(byTestId(form(), 'mcp-error-url').textContent).toContain('http:// or https://');
    await settle(() => typeInto(byLabel(form(), 'URL'), 'https://user:pw@example.org/mcp'));
    await submit(form());
    expect(byTestId(form(), 'mcp-error-url').textContent).toContain('credentials');
    await settle(() => typeInto(byLabel(form(), 'URL'), 'https://example.org/mcp'));
    await settle(() => buttonNamed(form(), 'Add header').click());
    await settle(() => typeInto(byLabel(form(), 'Header 1 name'), 'Authorization'));
    await settle(() => typeInto(byLabel(form(), 'Header 1 value'), 'Bearer t'));
    await settle(() => byLabel(form(), /^Trusted/).click());
    await settle(() => byLabel(form(), /^Enabled/).click());
    await submit(form());
    expect(host.callsTo('mcp.add').map((c) => c.input)).toEqual([
      { id: 'remote', transport: 'http', url: 'https://example.org/mcp', headers: { Authorization: 'Bearer t' }, trusted: true, enabled: false },
    ]);
    // The core keeps the header's value to itself: clients see a mask.
    expect(JSON.stringify(await host.arrange('mcp.list', {}))).not.toContain('Bearer t');
    expect(host.core.mcp.get('remote').config).toMatchObject({ transport: 'http', url: 'https://example.org/mcp', trusted: true, enabled: false });
  });
});

describe('edit form', () => {
  it('starts from the config and sends the whole config as a patch, removing what was emptied', async () => {
    const { panel, host } = await openSection([
      { id: 'files', name: 'Files', transport: 'stdio', command: process.execPath, args: ['--no-warnings', STDIO_FIXTURE, '/home/ada/notes with spaces'], env: { A: '1' }, cwd: '/srv', enabled: false },
    ]);
    await settle(() => buttonNamed(panel, 'Edit Files').click());
    const form = byTestId(panel, 'mcp-form');
    expect(form.querySelector('h2')?.textContent).toBe('Edit Files');
    expect(byLabel(form, 'Id').readOnly).toBe(true);
    expect(byLabel(form, 'Id').value).toBe('files');
    expect(byLabel(form, 'Argument 3').value).toBe('/home/ada/notes with spaces');
    await settle(() => buttonNamed(form, 'Remove argument 1').click());
    await settle(() => buttonNamed(form, 'Remove variable 1').click());
    await settle(() => typeInto(byLabel(form, /^Working folder/), ''));
    await settle(() => buttonNamed(form, 'Save changes').click());
    expect(host.callsTo('mcp.update').map((c) => c.input)).toEqual([
      {
        id: 'files',
        patch: {
          name: 'Files',
          trusted: false,
          enabled: false,
          transport: 'stdio',
          command: process.execPath,
          args: [STDIO_FIXTURE, '/home/ada/notes with spaces'],
          env: null,
          cwd: null,
          url: null,
          headers: null,
        },
      },
    ]);
    expect(panel.querySelector('[data-testid="mcp-form"]')).toBeNull();
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Edit Files');
    const saved = host.core.mcp.get('files').config;
    expect(saved.args).toEqual([STDIO_FIXTURE, '/home/ada/notes with spaces']);
    expect(saved.env).toBeUndefined();
    expect(saved.cwd).toBeUndefined();
  });

  it('refuses an edit the core would refuse on its field, without sending it', async () => {
    const { panel, host } = await openSection([{ id: 'files', name: 'Files', transport: 'stdio', command: process.execPath, enabled: false }]);
    await settle(() => buttonNamed(panel, 'Edit Files').click());
    await settle(() => typeInto(byLabel(byTestId(panel, 'mcp-form'), 'Program'), 'x'.repeat(5000)));
    await settle(() => buttonNamed(byTestId(panel, 'mcp-form'), 'Save changes').click());
    expect(host.callsTo('mcp.update')).toHaveLength(0);
    expect(byTestId(panel, 'mcp-error-command').textContent).toContain('4096');
    expect(host.core.mcp.get('files').config.command).toBe(process.execPath);
  });
});

describe('import', () => {
  it('imports pasted mcpServers JSON, untrusted and disabled unless enabled, and lists each rejected entry by field', async () => {
    const { panel, host } = await openSection();
    await settle(() => buttonNamed(panel, 'Import JSON').click());
    const form = byTestId(panel, 'mcp-import');

    await settle(() => buttonNamed(form, 'Import').click());
    expect(host.callsTo('mcp.importJson')).toHaveLength(0);
    expect(form.textContent).toContain('Paste the JSON first.');

    // github is the fixture (it starts once imported enabled), broken has no program, the third is an SSE server under a
    // hostile name.
    const json = JSON.stringify({ mcpServers: { github: { command: process.execPath, args: [STDIO_FIXTURE] }, broken: {}, [XSS]: { type: 'sse', url: 'https://x.example/sse' } } });
    await settle(() => typeInto(byLabel(form, 'JSON'), json));
    await settle(() => buttonNamed(form, 'Import').click());
    expect(host.callsTo('mcp.importJson').map((c) => c.input)).toEqual([{ json }]);

    expect(byTestId(form, 'mcp-import-outcome').textContent).toContain('Added 1 server: github — untrusted and disabled.');
    const errors = [...form.querySelectorAll<HTMLElement>('[data-testid="mcp-import-error"]')];
    expect(errors).toHaveLength(2);
    expect(errors[0]!.textContent).toContain('broken · field command');
    expect(errors[0]!.textContent).toContain('enter the program to run');
    expect(errors[0]!.textContent).not.toContain('/mcpServers/broken/command:');
    expect(errors[1]!.querySelector('strong')?.textContent).toBe(XSS);
    expect(errors[1]!.textContent).toContain('field type');
    expect(errors[1]!.textContent).toContain('the legacy SSE transport is not supported');
    expect(panel.querySelector('[data-testid="mcp-server"][data-id="github"]')).not.toBeNull();
    expect(panel.querySelector('img')).toBeNull();

    await settle(() => byLabel(form, /^Enable the imported servers/).click());
    await settle(() => buttonNamed(form, 'Import').click());
    expect(host.callsTo('mcp.importJson').at(-1)?.input).toEqual({ json, enable: true });
    // The core added it again under a free id, enabled this time.
    expect(host.core.mcp.list().map((s) => [s.config.id, s.config.enabled])).toEqual([
      ['github', false],
      ['github-2', true],
    ]);
  });

  it('shows a document-level error (invalid JSON) as such', async () => {
    const { panel } = await openSection();
    await settle(() => buttonNamed(panel, 'Import JSON').click());
    const form = byTestId(panel, 'mcp-import');
    await settle(() => typeInto(byLabel(form, 'JSON'), '{nope'));
    await settle(() => buttonNamed(form, 'Import').click());
    expect(byTestId(form, 'mcp-import-outcome').textContent).toContain('Nothing was added.');
    expect(byTestId(form, 'mcp-import-error').textContent).toContain('The whole document');
    expect(byTestId(form, 'mcp-import-error').textContent).toContain('not valid JSON');
  });
});
