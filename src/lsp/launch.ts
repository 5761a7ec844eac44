/**
 * "Verify with this launch": the launch sizes a document is verified at,
 * chosen for that document by a code action, over the settings':
 *
 *   settings  the settings' blockDim and gridDim, each completed by the
 *             file's own (the default, as `verify -b … -g …`)
 *   file      the file's own: its GPUVerify test header's sizes, else those
 *             its host code (with `compileCommands`, the project's) launches
 *             each kernel with, as `verify` without -b and -g
 *   every     every size: not the settings', the header's nor the host
 *             code's (as `verify --any-launch` without -b and -g, and the
 *             test header's sizes left out too)
 *
 * A choice lasts while the document is open; the other documents keep the
 * settings'. An action is offered only where it changes the sizes: "the
 * file's own" where the file has some and the settings or the choice override
 * them, "every launch" where any sizes are fixed, "the settings'" back from
 * a choice.
 */
import type { CodeAction } from 'vscode-languageserver';
import { assertNever } from '../util/assert.js';
import type { LspSettings } from './settings.js';

export const LAUNCH_MODES = ['settings', 'file', 'every'] as const;
export type LaunchMode = (typeof LAUNCH_MODES)[number];

export const isLaunchMode = (v: unknown): v is LaunchMode => LAUNCH_MODES.some((m) => m === v);

/** The server's command that verifies the document its first argument names in the mode its second names. */
export const LAUNCH_COMMAND = 'faial-ts.verifyAt';

/** The kind of the launch actions: a source action (VS Code lists them under "Source Action…"), not a quick fix of a diagnostic. */
export const LAUNCH_ACTION_KIND = 'source.faial-ts.launch';

/** What a verification found out about the sizes a document can be verified at, whatever the mode it ran in. */
export interface LaunchFacts {
  /** the settings' sizes (`blockDim = 256`); null when they fix none */
  readonly settings: string | null;
  /** the file's own sizes, one text per source (`test header: blockDim = 16`, `launch of k: gridDim = 4, blockDim = 256`); empty when it has none */
  readonly own: readonly string[];
}

/** The settings' sizes as text; null when they fix none. */
export function settingsLaunchText(settings: Pick<LspSettings, 'blockDim' | 'gridDim'>): string | null {
  const parts = [settings.blockDim === null ? null : `blockDim = ${settings.blockDim}`, settings.gridDim === null ? null : `gridDim = ${settings.gridDim}`].filter((p) => p !== null);
  return parts.length === 0 ? null : parts.join(', ');
}

/** The settings a mode verifies with: without the settings' sizes except in the default mode. */
export function modeSettings(settings: LspSettings, mode: LaunchMode): LspSettings {
  return mode === 'settings' ? settings : { ...settings, blockDim: null, gridDim: null };
}

/** Which sizes a mode ends up verifying at, given the facts: two modes with the same effect are the same choice. */
function effectOf(mode: LaunchMode, facts: LaunchFacts): LaunchMode {
  switch (mode) {
    case 'settings':
      return facts.settings !== null ? 'settings' : effectOf('file', facts);
    case 'file':
      return facts.own.length > 0 ? 'file' : 'every';
    case 'every':
      return 'every';
    default:
      return assertNever(mode);
  }
}

function titleOf(effect: LaunchMode, facts: LaunchFacts): string {
  switch (effect) {
    case 'settings':
      return `faial-ts: verify at the settings' launch (${facts.settings ?? ''})`;
    case 'file':
      return `faial-ts: verify at this file's launch (${facts.own.join('; ')})`;
    case 'every':
      return 'faial-ts: verify for every launch';
    default:
      return assertNever(effect);
  }
}

/** The launch actions of the document at `uri` verified in `current` mode: one per other launch it can be verified at. */
export function launchActions(uri: string, current: LaunchMode, facts: LaunchFacts): CodeAction[] {
  const seen = new Set<LaunchMode>([effectOf(current, facts)]);
  const actions: CodeAction[] = [];
  for (const mode of LAUNCH_MODES) {
    const effect = effectOf(mode, facts);
    if (seen.has(effect)) continue;
    seen.add(effect);
    const title = titleOf(effect, facts);
    actions.push({ title, kind: LAUNCH_ACTION_KIND, command: { title, command: LAUNCH_COMMAND, arguments: [uri, mode] } });
  }
  return actions;
}
