// The `urlls` section the server receives through workspace/configuration.
//
// The server takes the keys of .urlls.json — severity, strict, grammar,
// ignore, languages, maxFindings — and rejects any other key with an error
// message, except the client-side trace, server, enable and filetypes, which
// it drops. VS Code's `urlls` section also holds activateOn, so the client
// never sends the section as VS Code has it: it sends these six keys, and
// only those the user set in some scope. A default left out keeps the
// .urlls.json value: sending the default `ignore: []` would replace the
// file's patterns, and the default `strict: false` would turn off a file's
// `"strict": true`; `grammar` has no default, so that the file decides.

export const SERVER_KEYS = ['severity', 'strict', 'grammar', 'ignore', 'languages', 'maxFindings'] as const;
export type ServerKey = (typeof SERVER_KEYS)[number];

/** The part of vscode.WorkspaceConfiguration used here. */
export interface ConfigurationLike {
  get<T>(key: string): T | undefined;
  inspect<T>(key: string):
    | {
        globalValue?: T;
        workspaceValue?: T;
        workspaceFolderValue?: T;
        globalLanguageValue?: T;
        workspaceLanguageValue?: T;
        workspaceFolderLanguageValue?: T;
      }
    | undefined;
}

/** True when the user set the key in some scope (not just the default). */
export function isSet(cfg: ConfigurationLike, key: string): boolean {
  const i = cfg.inspect(key);
  if (!i) return false;
  return [
    i.globalValue,
    i.workspaceValue,
    i.workspaceFolderValue,
    i.globalLanguageValue,
    i.workspaceLanguageValue,
    i.workspaceFolderLanguageValue,
  ].some((v) => v !== undefined);
}

/** The object sent as the server's `urlls` section. */
export function serverSection(cfg: ConfigurationLike): { [K in ServerKey]?: unknown } {
  const out: { [K in ServerKey]?: unknown } = {};
  for (const key of SERVER_KEYS) {
    if (isSet(cfg, key)) {
      out[key] = cfg.get(key);
    }
  }
  return out;
}

/** Settings whose change needs a new server process (or a new document selector). */
export const RESTART_KEYS = ['urlls.server.path', 'urlls.activateOn'];

/** The languages checked whatever urlls.activateOn says. */
export const BUILTIN_LANGUAGES = ['markdown', 'html', 'plaintext'];

/** The language ids of the document selector: the built-in ones and urlls.activateOn. */
export function languageIds(activateOn: unknown): string[] {
  const ids = [...BUILTIN_LANGUAGES];
  if (Array.isArray(activateOn)) {
    for (const id of activateOn) {
      if (typeof id === 'string' && id.trim() !== '' && !ids.includes(id.trim())) {
        ids.push(id.trim());
      }
    }
  }
  return ids;
}
