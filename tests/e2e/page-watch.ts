// What every browser test watches for: page errors, CSP refusals, and the XSS canary on window.
import type { Page } from '@playwright/test';

declare global {
  interface Window {
    __pwned?: unknown;
  }
}

/** Collects page errors and CSP violations; a test ends with `expect(problems).toEqual([])`. */
export function watchPage(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && /Content.Security.Policy|Refused to/i.test(msg.text())) problems.push(`csp: ${msg.text()}`);
  });
  return problems;
}
