// Starting a Workbench session in a browser test, and waiting until it is the one shown.
import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Clicks New session and returns the new session's id once it is the open one. Until the host has answered, the
 * session the Workbench opened by itself is still on screen, and a test that went on at once chose a connection and
 * sent its message there: the reply then streamed into the old session, and the new one showed none (CI saw it as a
 * "missing first reply" in layout.spec and frontends.spec).
 */
export async function startNewSession(scope: Page | Locator): Promise<string> {
  const button = scope.getByTestId('new-session').first();
  await button.click();
  // The button reads "Creating…" until the host answered; by then the new session is the open one.
  await expect(button).toHaveText('New session');
  const open = scope.getByTestId('open-session');
  await expect(open).toHaveAttribute('data-session-id', /.+/);
  const id = (await open.getAttribute('data-session-id'))!;
  await expect(scope.getByTestId('session').and(scope.locator(`[data-id="${id}"]`))).toHaveAttribute('aria-current', 'true');
  return id;
}
