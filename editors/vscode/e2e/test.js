// The urlls extension in a real VS Code: code-server's workbench in Debian's
// Chromium, driven through playwright-core the way a person would use it.
//
//   node test.js URL WORKSPACE RESULTS EXTENSIONS_DIR
//
// URL is the workbench of code-server (127.0.0.1 only) with WORKSPACE open;
// demo.md there holds two bad escapes and an upper-case scheme, and
// .vscode/settings.json makes scheme-case a warning. Steps, each failing
// loudly with a screenshot (RESULTS/failure.png):
//   1. open demo.md from the Explorer; the error squiggles of both bad escapes
//      and the warning squiggle of the scheme show, the Problems panel lists
//      the bad escape's message, and the server that runs is the binary
//      shipped inside the installed extension;
//   2. the port is coloured on its own (semantic tokens);
//   3. hover the port: the hover names the production `port` and the chain
//      `httpurl › hostport › port` (RESULTS/hover.png);
//   4. Ctrl+. on the bad escape, pick "encode % as %25": its squiggle goes,
//      the text reads %25zz;
//   5. the workspace settings make scheme-case an error: the server re-reads
//      the configuration and the warning becomes an error;
//   6. urlls.server.path set to a missing file: the server stops and an error
//      names the setting and offers the install docs (RESULTS/not-found.png);
//      the setting cleared, the shipped server runs again;
//   7. "urlls: Fix All URL Problems in File" from the Command Palette: no
//      squiggle is left (RESULTS/final.png), and no other urlls message was
//      shown (a server that refused the settings would say so).
// Prints one line per step and "N passed, N failed".
'use strict';
const { chromium } = require('playwright-core');
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const [url, workspace, results, extensionsDir] = process.argv.slice(2);
if (!url || !workspace || !results || !extensionsDir) {
  console.error('usage: node test.js URL WORKSPACE RESULTS EXTENSIONS_DIR');
  process.exit(2);
}
fs.mkdirSync(results, { recursive: true });

const CHROMIUM_FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

let passed = 0;
const t0 = Date.now();
function ok(step) {
  passed++;
  console.log(`ok ${passed} - ${step} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}

// Polls fn until it returns a truthy value; fails with what it last saw.
async function until(what, fn, timeout = 20000) {
  const end = Date.now() + timeout;
  let last;
  for (;;) {
    last = await fn();
    if (last && last.ok !== false) return last;
    if (Date.now() > end) throw new Error(`timed out after ${timeout / 1000} s waiting for ${what}; last seen: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

// The squiggles the editor draws, by severity, and the text of its lines.
function editorState(page) {
  return page.evaluate(() => {
    const ed = document.querySelector('.editor-instance .monaco-editor');
    if (!ed) return { ok: false, why: 'no editor' };
    const count = (c) => ed.querySelectorAll(`.view-overlays .${c}`).length;
    const lines = [...ed.querySelectorAll('.view-lines .view-line')]
      .map((l) => ({ top: parseFloat(l.style.top) || 0, text: l.textContent.replace(/\u00a0/g, ' ') }))
      .sort((a, b) => a.top - b.top)
      .map((l) => l.text);
    return { errors: count('squiggly-error'), warnings: count('squiggly-warning'), infos: count('squiggly-info'), hints: count('squiggly-hint'), lines };
  });
}

// The viewport point at the middle of the index-th character of the first
// occurrence of needle in the editor's lines (text nodes across token spans).
function charPoint(page, needle, index) {
  return page.evaluate(([needle, index]) => {
    for (const line of document.querySelectorAll('.editor-instance .monaco-editor .view-lines .view-line')) {
      const text = line.textContent.replace(/\u00a0/g, ' ');
      const at = text.indexOf(needle);
      if (at < 0) continue;
      let want = at + index;
      const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (want < n.data.length) {
          const r = document.createRange();
          r.setStart(n, want);
          r.setEnd(n, want + 1);
          const b = r.getBoundingClientRect();
          return { x: b.left + b.width / 2, y: b.top + b.height / 2, left: b.left, top: b.top };
        }
        want -= n.data.length;
      }
    }
    return null;
  }, [needle, index]);
}

// Runs a command from the Command Palette (F1), by its full title.
async function command(page, title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill('>' + title);
  await page.locator('.quick-input-widget .monaco-list-row.focused', { hasText: title }).first().waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
}

// Fails if the notification center holds a message of urlls: the server's
// showMessage errors (a setting it refused, a broken .urlls.json) land there.
async function noUrllsNotification(page) {
  await command(page, 'Notifications: Show Notifications');
  const center = page.locator('.notifications-center');
  await center.waitFor();
  await page.waitForTimeout(200);
  const items = (await center.locator('.notification-list-item').allInnerTexts()).map((x) => x.replace(/\s+/g, ' '));
  await command(page, 'Notifications: Hide Notifications');
  const ours = items.filter((x) => /urlls/i.test(x));
  if (ours.length) throw new Error(`urlls showed a message: ${ours.join(' | ')}`);
}

(async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: CHROMIUM_FLAGS });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(20000);
  const consoleErrors = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  let failed = 0;
  try {
    await page.goto(url, { timeout: 60000 });
    await page.locator('.monaco-workbench').waitFor({ timeout: 60000 });

    // 1. Open demo.md from the Explorer.
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'demo.md' }).first();
    await row.waitFor({ timeout: 60000 });
    await row.click();
    await page.locator('.tab.active', { hasText: 'demo.md' }).waitFor();
    let st = await until('squiggles: 2 errors (bad escapes) and 1 warning (scheme-case set to warning in the workspace)',
      async () => {
        const s = await editorState(page);
        return { ...s, ok: s.errors === 2 && s.warnings === 1 };
      }, 45000);
    if (!st.lines.some((l) => l.includes('http://example.org:8080/a%zz'))) throw new Error(`demo.md is not what the test expects: ${JSON.stringify(st.lines)}`);
    await page.keyboard.press('Control+Shift+M'); // the Problems panel
    await page.locator('.markers-panel', { hasText: '"%zz" is not an escape' }).first().waitFor();
    const ps = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
    const server = ps.split('\n').find((l) => /\/bin\/linux-x64\/urlls serve --stdio/.test(l));
    if (!server || !server.startsWith(path.resolve(extensionsDir) + '/')) {
      throw new Error(`the server running is not the one shipped in the extension under ${extensionsDir}: ${server || '(no urlls process)'}`);
    }
    ok(`diagnostics: 2 error squiggles, 1 warning squiggle, the Problems panel lists the bad escape; server ${server}`);

    // 2. Semantic tokens: the port is a token of its own, coloured unlike the host.
    const colours = await until('the port coloured as a semantic token', () => page.evaluate(() => {
      const spans = [...document.querySelectorAll('.editor-instance .monaco-editor .view-lines .view-line span span')];
      const port = spans.find((s) => s.textContent === '8080');
      const host = spans.find((s) => s.textContent === 'example.org');
      if (!port || !host) return { ok: false, spans: spans.map((s) => s.textContent).slice(0, 40) };
      const cp = getComputedStyle(port).color, ch = getComputedStyle(host).color;
      return { ok: cp !== ch, port: cp, host: ch };
    }));
    ok(`semantic tokens: port ${colours.port}, host ${colours.host}`);

    // 3. Hover the port.
    const portAt = await charPoint(page, ':8080/', 2);
    if (!portAt) throw new Error('cannot find the port on screen');
    await page.mouse.move(portAt.x - 30, portAt.y + 40);
    await page.mouse.move(portAt.x, portAt.y, { steps: 5 });
    const hover = page.locator('.monaco-hover:visible', { hasText: 'hostport' }).first();
    await hover.waitFor({ timeout: 15000 });
    const hoverText = (await hover.innerText()).replace(/\s+/g, ' ');
    if (!/^port\b/.test(hoverText) || !hoverText.includes('httpurl › hostport › port')) {
      throw new Error(`the hover does not name port and its chain: ${hoverText}`);
    }
    await page.waitForTimeout(300); // let the hover finish rendering its code block
    await page.screenshot({ path: path.join(results, 'hover.png') });
    ok(`hover on the port: "${hoverText.slice(0, 120)}"; screenshot ${path.join(results, 'hover.png')}`);

    // 4. The quick fix, from Ctrl+. on the bad escape.
    await page.keyboard.press('Escape');
    await page.mouse.move(10, 400);
    const pct = await charPoint(page, '%zz', 0);
    await page.mouse.click(pct.left + 1, pct.y); // the cursor lands before the "%"
    await page.keyboard.press('Control+.');
    const menu = page.locator('.action-widget', { hasText: 'encode % as %25' }).first();
    await menu.waitFor();
    const focused = await until('the quick fix "encode % as %25" first in the menu', () => page.evaluate(() => {
      const rows = [...document.querySelectorAll('.action-widget [role="option"]')];
      const f = rows.find((r) => r.classList.contains('focused'));
      return { ok: !!f && f.textContent.includes('encode % as %25'), rows: rows.map((r) => r.className + ': ' + r.textContent) };
    }));
    console.log(`   quick fix menu: ${JSON.stringify(focused.rows)}`);
    // Point at the item, then click it (the menu's pointer block goes away
    // once the mouse moves, as it does for a person).
    const box = await page.locator('.action-widget [role="option"]', { hasText: 'encode % as %25' }).first().boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 5 });
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    st = await until('the bad escape fixed: 1 error squiggle left and the text %25zz', async () => {
      const s = await editorState(page);
      return { ...s, ok: s.errors === 1 && s.lines.some((l) => l.includes('http://example.org:8080/a%25zz')) };
    });
    ok('quick fix "encode % as %25" applied from Ctrl+.: a%zz is now a%25zz and its squiggle is gone');

    // 5. A settings change reaches the server without a restart.
    const settingsFile = path.join(workspace, '.vscode', 'settings.json');
    const settings = JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
    settings['urlls.severity'] = { ...settings['urlls.severity'], 'scheme-case': 'error' };
    fs.writeFileSync(settingsFile, JSON.stringify(settings, null, 2) + '\n');
    st = await until('scheme-case reported as an error after the settings change', async () => {
      const s = await editorState(page);
      return { ...s, ok: s.errors === 2 && s.warnings === 0 };
    });
    await noUrllsNotification(page); // the server took the settings VS Code sent without complaint
    ok('urlls.severity changed in the workspace settings: the scheme-case warning became an error; no urlls notification');

    // 6. A server path that leads nowhere: the server stops, an error says
    //    why and offers the install docs; cleared, the bundled server is back.
    settings['urlls.server.path'] = '/nonexistent/urlls';
    fs.writeFileSync(settingsFile, JSON.stringify(settings, null, 2) + '\n');
    const notFound = page.locator('.notification-toast', { hasText: 'urlls.server.path is "/nonexistent/urlls"' }).first();
    await notFound.waitFor();
    const notFoundText = (await notFound.innerText()).replace(/\s+/g, ' ');
    if (!notFoundText.includes('How to Install')) throw new Error(`the error offers no install docs: ${notFoundText}`);
    await until('the diagnostics gone with the server', async () => {
      const s = await editorState(page);
      return { ...s, ok: s.errors === 0 && s.warnings === 0 };
    });
    await page.screenshot({ path: path.join(results, 'not-found.png') });
    delete settings['urlls.server.path'];
    fs.writeFileSync(settingsFile, JSON.stringify(settings, null, 2) + '\n');
    await until('the diagnostics back from the restarted server', async () => {
      const s = await editorState(page);
      return { ...s, ok: s.errors === 2 && s.warnings === 0 };
    });
    await command(page, 'Notifications: Clear All Notifications');
    ok(`urlls.server.path set to a missing file: "${notFoundText.slice(0, 150)}"; cleared: the server restarted`);

    // 7. Fix all, from the Command Palette.
    await command(page, 'urlls: Fix All URL Problems in File');
    st = await until('no squiggle left after Fix All', async () => {
      const s = await editorState(page);
      return {
        ...s,
        ok: s.errors === 0 && s.warnings === 0 &&
          s.lines.some((l) => l.includes('<http://example.org/100%25done>, http://example.org/')),
      };
    });
    await page.waitForTimeout(500);
    await noUrllsNotification(page);
    await page.screenshot({ path: path.join(results, 'final.png') });
    ok(`"urlls: Fix All URL Problems in File": no squiggle left, lines ${JSON.stringify(st.lines.slice(2))}; screenshot ${path.join(results, 'final.png')}`);
  } catch (e) {
    failed = 1;
    console.error(`not ok ${passed + 1} - ${e.message.split('\n')[0]}`);
    await page.screenshot({ path: path.join(results, 'failure.png') }).catch(() => undefined);
    console.error(`screenshot of the failure: ${path.join(results, 'failure.png')}`);
    try {
      console.error('editor state:', JSON.stringify(await editorState(page)));
      console.error('notifications:', JSON.stringify(await page.locator('.notification-toast').allInnerTexts()));
    } catch {}
    if (consoleErrors.length) console.error('browser console errors (last 10):\n  ' + consoleErrors.slice(-10).join('\n  '));
  }
  await browser.close();
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
})().catch((e) => {
  console.error('FAIL:', e);
  console.log('0 passed, 1 failed');
  process.exit(1);
});
