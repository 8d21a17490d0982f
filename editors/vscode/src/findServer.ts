// Where the urlls executable is: the urlls.server.path setting, else `urlls`
// on the PATH, else the binary shipped inside the extension for this
// platform (bin/<platform>-<arch>/urlls). Pure apart from the file system
// functions it is given, so that the unit tests can drive it.

import * as path from 'path';

export type ServerSource = 'setting' | 'PATH' | 'bundled';

export interface Found {
  path: string;
  source: ServerSource;
}

export interface NotFound {
  /** One line saying what is wrong, for the error message. */
  error: string;
  /** Every place looked at, for the output channel. */
  tried: string[];
}

export interface FindOptions {
  /** The urlls.server.path setting ("" when unset). */
  setting: string;
  /** The first workspace folder's path, for relative paths and ${workspaceFolder}. */
  workspaceFolder?: string;
  /** The extension's install directory. */
  extensionPath: string;
  env: { [name: string]: string | undefined };
  platform: string; // process.platform
  arch: string; // process.arch
  homedir: string;
  /** True when the file exists and is a regular file (or a link to one). */
  isFile(p: string): boolean;
  /** True when the file may be executed (always true on Windows). */
  isExecutable(p: string): boolean;
}

/** The file name of the executable on a platform. */
export function exeName(platform: string): string {
  return platform === 'win32' ? 'urlls.exe' : 'urlls';
}

/** The bundled binary's path inside the extension, as CI's packaging step puts it there. */
export function bundledPath(extensionPath: string, platform: string, arch: string): string {
  return path.join(extensionPath, 'bin', `${platform}-${arch}`, exeName(platform));
}

/** Expands ~, ${userHome} and ${workspaceFolder} and resolves a relative path. */
export function expandSetting(setting: string, o: Pick<FindOptions, 'homedir' | 'workspaceFolder'>): string {
  let p = setting.trim();
  if (p === '~' || p.startsWith('~/') || p.startsWith('~\\')) {
    p = o.homedir + p.slice(1);
  }
  p = p.replace(/\$\{userHome\}/g, o.homedir);
  if (o.workspaceFolder !== undefined) {
    p = p.replace(/\$\{workspaceFolder\}/g, o.workspaceFolder);
  }
  if (!path.isAbsolute(p) && o.workspaceFolder !== undefined && /[\\/]/.test(p)) {
    p = path.join(o.workspaceFolder, p);
  }
  return p;
}

/** Looks for a command on the PATH the way a shell would. */
export function searchPath(name: string, o: FindOptions): string | undefined {
  const pathVar = o.env.PATH ?? o.env.Path ?? '';
  const sep = o.platform === 'win32' ? ';' : ':';
  const exts = o.platform === 'win32' && !path.extname(name) ? (o.env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';') : [''];
  for (const dir of pathVar.split(sep)) {
    if (!dir) continue;
    for (const ext of exts) {
      const candidate = path.join(dir, name + ext.toLowerCase());
      if (o.isFile(candidate) && o.isExecutable(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}

export function findServer(o: FindOptions): Found | NotFound {
  const tried: string[] = [];
  if (o.setting.trim() !== '') {
    const p = expandSetting(o.setting, o);
    if (!path.isAbsolute(p) && !/[\\/]/.test(p)) {
      // A bare command name: look it up on the PATH.
      const onPath = searchPath(p, o);
      if (onPath) return { path: onPath, source: 'setting' };
      return { error: `urlls.server.path is "${o.setting}", which is not a command on the PATH.`, tried: [`${p} on the PATH`] };
    }
    if (!o.isFile(p)) {
      return { error: `urlls.server.path is "${o.setting}", and there is no file ${p}.`, tried: [p] };
    }
    if (!o.isExecutable(p)) {
      return { error: `urlls.server.path is "${o.setting}", and ${p} is not executable.`, tried: [p] };
    }
    return { path: p, source: 'setting' };
  }
  tried.push('the urlls.server.path setting (empty)');
  const onPath = searchPath(exeName(o.platform), o);
  if (onPath) return { path: onPath, source: 'PATH' };
  tried.push(`${exeName(o.platform)} on the PATH (${o.env.PATH ?? o.env.Path ?? ''})`);
  const bundled = bundledPath(o.extensionPath, o.platform, o.arch);
  if (o.isFile(bundled)) return { path: bundled, source: 'bundled' };
  tried.push(`${bundled} (no binary ships for ${o.platform}-${o.arch} in this build of the extension)`);
  return { error: 'The urlls language server was not found.', tried };
}
