import type { Page } from 'playwright-core';

/** Runs a command from the command palette (F1) by its title, and returns once the palette has closed on it. */
export async function palette(page: Page, text: string): Promise<void> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: 10_000 });
  await input.fill('>' + text);
  // Enter only once the filtered list has our command focused (typing races the list update otherwise).
  const focused = page.locator('.quick-input-list .monaco-list-row.focused', { hasText: text }).first();
  await focused.waitFor({ timeout: 10_000 });
  // The first palette use of a session can swallow the accept while it is still loading: retry until it closes.
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press('Enter');
    const closed = await focused.waitFor({ state: 'hidden', timeout: 1_500 }).then(() => true, () => false);
    if (closed) return;
  }
  throw new Error(`the command palette did not run '${text}'`);
}
