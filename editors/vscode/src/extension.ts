// The urlls extension: starts `urlls serve` (stdio) through
// vscode-languageclient for Markdown, HTML, plain text and the languages of
// urlls.activateOn, and adds three commands.

import * as fs from 'fs';
import * as os from 'os';
import * as vscode from 'vscode';
import { DidChangeConfigurationNotification, LanguageClient, LanguageClientOptions, ServerOptions, TransportKind } from 'vscode-languageclient/node';

import { bundledPath, findServer, Found } from './findServer';
import { languageIds, RESTART_KEYS, serverSection } from './settings';

/** Where the extension's README says how to install the server. */
export const INSTALL_DOCS = 'https://github.com/urlls/urlls/tree/main/editors/vscode#installing-the-server';

const FIX_ALL_KIND = vscode.CodeActionKind.SourceFixAll.append('urlls');

let client: LanguageClient | undefined;
let starting: Promise<void> | undefined;
let output: vscode.OutputChannel;
let context: vscode.ExtensionContext;

function log(line: string): void {
  output.appendLine(`[${new Date().toISOString()}] ${line}`);
}

function selector(): { scheme: string; language: string }[] {
  const ids = languageIds(vscode.workspace.getConfiguration('urlls').get('activateOn'));
  return ids.flatMap((language) => [
    { scheme: 'file', language },
    { scheme: 'untitled', language },
  ]);
}

function isChecked(doc: vscode.TextDocument): boolean {
  return vscode.languages.match(selector(), doc) > 0;
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

function isExecutable(p: string): boolean {
  if (process.platform === 'win32') return true;
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function locateServer(): Found | undefined {
  const cfg = vscode.workspace.getConfiguration('urlls');
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  // A zip may lose the executable bit of the bundled binary: give it back.
  const bundled = bundledPath(context.extensionPath, process.platform, process.arch);
  if (isFile(bundled) && !isExecutable(bundled)) {
    try {
      fs.chmodSync(bundled, 0o755);
    } catch (e) {
      log(`cannot make ${bundled} executable: ${e}`);
    }
  }
  const found = findServer({
    setting: cfg.get<string>('server.path') ?? '',
    workspaceFolder: folder?.uri.fsPath,
    extensionPath: context.extensionPath,
    env: process.env,
    platform: process.platform,
    arch: process.arch,
    homedir: os.homedir(),
    isFile,
    isExecutable,
  });
  if ('error' in found) {
    log(found.error);
    for (const t of found.tried) log(`  looked at: ${t}`);
    const install = 'How to Install';
    const settings = 'Open Settings';
    void vscode.window
      .showErrorMessage(
        `urlls: ${found.error} Install it (\`go install github.com/urlls/urlls/cmd/urlls@latest\`) or set urlls.server.path.`,
        install,
        settings,
      )
      .then((choice) => {
        if (choice === install) void vscode.env.openExternal(vscode.Uri.parse(INSTALL_DOCS));
        if (choice === settings) void vscode.commands.executeCommand('workbench.action.openSettings', 'urlls.server.path');
      });
    return undefined;
  }
  log(`server: ${found.path} (${found.source === 'setting' ? 'urlls.server.path' : found.source === 'PATH' ? 'found on the PATH' : 'shipped with the extension'})`);
  return found;
}

async function startClient(): Promise<void> {
  if (client) return;
  const found = locateServer();
  if (!found) return;
  const run = { command: found.path, args: ['serve'], transport: TransportKind.stdio };
  const serverOptions: ServerOptions = { run, debug: run };
  const clientOptions: LanguageClientOptions = {
    documentSelector: selector(),
    outputChannel: output,
    middleware: {
      workspace: {
        // The server gets only the keys it knows (settings.ts).
        configuration: async (params, token, next) => {
          const result = await next(params, token);
          if (!Array.isArray(result)) return result;
          return params.items.map((item, i) => {
            if (item.section !== 'urlls') return result[i];
            const scope = item.scopeUri ? vscode.Uri.parse(item.scopeUri) : undefined;
            return serverSection(vscode.workspace.getConfiguration('urlls', scope));
          });
        },
      },
    },
  };
  const c = new LanguageClient('urlls', 'urlls', serverOptions, clientOptions);
  client = c;
  try {
    await c.start();
    log('server started');
  } catch (e) {
    log(`server did not start: ${e}`);
    client = undefined;
    await c.dispose().catch(() => undefined);
    void vscode.window.showErrorMessage(`urlls: the server ${found.path} did not start: ${e}`, 'Show Output').then((choice) => {
      if (choice) output.show(true);
    });
  }
}

async function stopClient(): Promise<void> {
  const c = client;
  client = undefined;
  if (c) {
    try {
      await c.stop(5000);
    } catch (e) {
      log(`stopping the server: ${e}`);
    }
    await c.dispose().catch(() => undefined);
  }
}

/** Starts the server when a checked document is open; later calls wait for the same start. */
function ensureStarted(): Promise<void> {
  if (!starting) {
    starting = startClient().finally(() => {
      starting = undefined;
    });
  }
  return starting;
}

async function restart(): Promise<void> {
  await (starting ?? Promise.resolve());
  await stopClient();
  await ensureStarted();
}

function hasCheckedDocument(): boolean {
  return vscode.workspace.textDocuments.some(isChecked);
}

async function fixAll(): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (!editor) {
    void vscode.window.showInformationMessage('urlls: open a file to fix its URLs.');
    return;
  }
  const doc = editor.document;
  if (!isChecked(doc)) {
    void vscode.window.showInformationMessage(`urlls does not check ${doc.languageId} files: add "${doc.languageId}" to urlls.activateOn.`);
    return;
  }
  await ensureStarted();
  if (!client) return;
  const all = doc.validateRange(new vscode.Range(0, 0, doc.lineCount, 0));
  const actions =
    (await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>('vscode.executeCodeActionProvider', doc.uri, all, FIX_ALL_KIND.value)) ?? [];
  const action = actions.find((a): a is vscode.CodeAction => 'kind' in a && a.kind !== undefined && FIX_ALL_KIND.contains(a.kind));
  if (!action) {
    void vscode.window.showInformationMessage('urlls: no URL problem with a fix in this file.');
    return;
  }
  if (action.edit && !(await vscode.workspace.applyEdit(action.edit))) {
    void vscode.window.showErrorMessage('urlls: the fixes could not be applied (the file changed meanwhile?).');
    return;
  }
  if (action.command) {
    await vscode.commands.executeCommand(action.command.command, ...(action.command.arguments ?? []));
  }
  log(`${action.title} in ${doc.uri.toString()}`);
}

export async function activate(ctx: vscode.ExtensionContext): Promise<void> {
  context = ctx;
  output = vscode.window.createOutputChannel('urlls');
  ctx.subscriptions.push(
    output,
    vscode.commands.registerCommand('urlls.restartServer', restart),
    vscode.commands.registerCommand('urlls.fixAll', fixAll),
    vscode.commands.registerCommand('urlls.showOutput', () => output.show(true)),
    vscode.workspace.onDidOpenTextDocument((doc) => {
      if (!client && isChecked(doc)) void ensureStarted();
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('urlls')) return;
      if (RESTART_KEYS.some((k) => e.affectsConfiguration(k))) {
        log('urlls.server.path or urlls.activateOn changed: restarting the server');
        void restart();
        return;
      }
      // The server answers by asking for the section again
      // (workspace/configuration) and re-checks every open document.
      const c = client;
      if (c?.isRunning()) {
        void c.sendNotification(DidChangeConfigurationNotification.type, { settings: { urlls: serverSection(vscode.workspace.getConfiguration('urlls')) } });
      }
    }),
    { dispose: () => void stopClient() },
  );
  // Activated by onStartupFinished, a command or a language: start only
  // when there is something to check.
  if (hasCheckedDocument()) {
    await ensureStarted();
  }
}

export function deactivate(): Promise<void> | undefined {
  return client ? stopClient() : undefined;
}
