import crypto from 'node:crypto';
import * as vscode from 'vscode';

export interface ScriptedPanel {
  /** Folder under `media/` holding the panel's stylesheet and script. */
  readonly mediaDir: string;
  readonly css: string;
  readonly js: string;
  readonly title: string;
  /** The markup between `<body>` and the script tag. */
  readonly body: string;
}

/**
 * The page of a webview panel that runs its own script: a strict CSP (nothing by default, the extension's own
 * styles, fonts and images, and one script allowed by a per-render nonce), theme-aware stylesheet, then the body.
 */
export function scriptedPanelHtml(webview: vscode.Webview, extensionUri: vscode.Uri, panel: ScriptedPanel): string {
  const nonce = crypto.randomBytes(16).toString('base64');
  const media = (f: string): string => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', panel.mediaDir, f)).toString();
  const csp = ["default-src 'none'", `style-src ${webview.cspSource}`, `script-src 'nonce-${nonce}'`, `img-src ${webview.cspSource} data:`, `font-src ${webview.cspSource}`].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${media(panel.css)}">
<title>${panel.title}</title>
</head>
<body>
${panel.body}
<script nonce="${nonce}" src="${media(panel.js)}"></script>
</body>
</html>`;
}
