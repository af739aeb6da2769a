// Opens our own URL in the user's browser; the command is fixed, the URL is ours, no shell is involved.
import { spawn } from 'node:child_process';

export function openInBrowser(url: string): void {
  if (!/^http:\/\/127\.0\.0\.1:\d+\/#token=[0-9a-f]+$/.test(url)) return;
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['rundll32', ['url.dll,FileProtocolHandler', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(command, args as string[], { stdio: 'ignore', detached: true, shell: false });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No browser opener: the printed URL is enough.
  }
}
