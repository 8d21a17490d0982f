// Unit tests of the server lookup and of the section sent to the server
// (node --test, after esbuild bundles them; see package.json "test").
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { bundledPath, expandSetting, FindOptions, findServer } from '../src/findServer';
import { ConfigurationLike, languageIds, serverSection } from '../src/settings';

function opts(files: { [p: string]: 'x' | 'r' }, over: Partial<FindOptions> = {}): FindOptions {
  return {
    setting: '',
    workspaceFolder: '/ws',
    extensionPath: '/ext',
    env: { PATH: '/usr/local/bin:/usr/bin' },
    platform: 'linux',
    arch: 'x64',
    homedir: '/home/u',
    isFile: (p) => p in files,
    isExecutable: (p) => files[p] === 'x',
    ...over,
  };
}

test('the setting wins over the PATH and the bundled binary', () => {
  const files = { '/opt/urlls': 'x', '/usr/bin/urlls': 'x', '/ext/bin/linux-x64/urlls': 'x' } as const;
  assert.deepEqual(findServer(opts(files, { setting: '/opt/urlls' })), { path: '/opt/urlls', source: 'setting' });
});

test('the PATH wins over the bundled binary, in PATH order', () => {
  const files = { '/usr/local/bin/urlls': 'x', '/usr/bin/urlls': 'x', '/ext/bin/linux-x64/urlls': 'x' } as const;
  assert.deepEqual(findServer(opts(files)), { path: '/usr/local/bin/urlls', source: 'PATH' });
});

test('a non-executable file on the PATH is skipped', () => {
  const files = { '/usr/local/bin/urlls': 'r', '/usr/bin/urlls': 'x' } as const;
  assert.deepEqual(findServer(opts(files)), { path: '/usr/bin/urlls', source: 'PATH' });
});

test('the bundled binary is the last resort', () => {
  const files = { '/ext/bin/linux-x64/urlls': 'x' } as const;
  assert.deepEqual(findServer(opts(files)), { path: '/ext/bin/linux-x64/urlls', source: 'bundled' });
  assert.equal(bundledPath('/ext', 'darwin', 'arm64'), '/ext/bin/darwin-arm64/urlls');
  assert.equal(bundledPath('/ext', 'win32', 'x64'), '/ext/bin/win32-x64/urlls.exe');
});

test('nothing found: an error that lists every place looked at', () => {
  const r = findServer(opts({}, { arch: 'arm64' }));
  assert.ok('error' in r);
  assert.match(r.error, /not found/);
  assert.equal(r.tried.length, 3);
  assert.match(r.tried[2], /linux-arm64/);
});

test('a setting that points nowhere is an error, not a silent fallback', () => {
  const r = findServer(opts({ '/usr/bin/urlls': 'x' }, { setting: '/nope/urlls' }));
  assert.ok('error' in r);
  assert.match(r.error, /no file \/nope\/urlls/);
  const r2 = findServer(opts({ '/opt/urlls': 'r' }, { setting: '/opt/urlls' }));
  assert.ok('error' in r2);
  assert.match(r2.error, /not executable/);
});

test('the setting expands ~ and ${workspaceFolder}; a bare name is looked up on the PATH', () => {
  assert.equal(expandSetting('~/go/bin/urlls', { homedir: '/home/u', workspaceFolder: '/ws' }), '/home/u/go/bin/urlls');
  assert.equal(expandSetting('${workspaceFolder}/bin/urlls', { homedir: '/h', workspaceFolder: '/ws' }), '/ws/bin/urlls');
  assert.equal(expandSetting('bin/urlls', { homedir: '/h', workspaceFolder: '/ws' }), '/ws/bin/urlls');
  assert.deepEqual(findServer(opts({ '/usr/bin/urlls-dev': 'x' }, { setting: 'urlls-dev' })), { path: '/usr/bin/urlls-dev', source: 'setting' });
});

test('Windows: PATHEXT and urlls.exe', () => {
  const r = findServer(opts({ 'C:\\tools/urlls.exe': 'x' }, { platform: 'win32', env: { Path: 'C:\\tools', PATHEXT: '.COM;.EXE' } }));
  assert.equal('path' in r && r.source, 'PATH');
});

function fakeConfig(values: { [k: string]: unknown }, set: string[]): ConfigurationLike {
  return {
    get: <T>(k: string) => values[k] as T,
    inspect: <T>(k: string) => (set.includes(k) ? { globalValue: values[k] as T } : {}),
  };
}

test('the server gets only the keys it knows, and only those the user set', () => {
  const cfg = fakeConfig(
    { severity: { 'bad-escape': 'warning' }, strict: false, ignore: [], languages: {}, activateOn: ['go'], trace: { server: 'verbose' }, server: { path: '' } },
    ['severity', 'activateOn', 'trace', 'server'],
  );
  assert.deepEqual(serverSection(cfg), { severity: { 'bad-escape': 'warning' } });
  const all = fakeConfig(
    { severity: {}, strict: true, grammar: 'rfc3986', ignore: ['http://localhost*'], languages: { '.mdx': 'markdown' }, maxFindings: 0 },
    ['severity', 'strict', 'grammar', 'ignore', 'languages', 'maxFindings'],
  );
  assert.deepEqual(serverSection(all), {
    severity: {},
    strict: true,
    grammar: 'rfc3986',
    ignore: ['http://localhost*'],
    languages: { '.mdx': 'markdown' },
    maxFindings: 0,
  });
  assert.deepEqual(serverSection(fakeConfig({}, [])), {});
});

test('urlls.grammar is sent only when set, so that .urlls.json decides otherwise', () => {
  assert.deepEqual(serverSection(fakeConfig({ grammar: undefined }, [])), {});
  assert.deepEqual(serverSection(fakeConfig({ grammar: 'xbnf' }, ['grammar'])), { grammar: 'xbnf' });
});

test('package.json: urlls.grammar has no default and an enum with a description each, the names urlls knows', () => {
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8'));
  const g = pkg.contributes.configuration.properties['urlls.grammar'];
  assert.equal(g.default, undefined);
  assert.deepEqual(g.enum, ['rfc1738', 'rfc3986', 'xbnf']);
  assert.equal(g.enumDescriptions.length, g.enum.length);
});

test('the document selector languages: the built-in three and urlls.activateOn', () => {
  assert.deepEqual(languageIds(undefined), ['markdown', 'html', 'plaintext']);
  assert.deepEqual(languageIds(['go', 'markdown', ' python ', '', 3]), ['markdown', 'html', 'plaintext', 'go', 'python']);
});
