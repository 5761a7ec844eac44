/**
 * The kernel editor: CodeMirror 6 with the language's highlighting, the
 * verifier's diagnostics at their spans (@codemirror/lint), and an alarm's
 * accesses marked in two colours, thread 1 and thread 2.
 */
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, indentOnInput, syntaxHighlighting, defaultHighlightStyle } from '@codemirror/language';
import { lintGutter, setDiagnostics, type Diagnostic as LintDiagnostic } from '@codemirror/lint';
import { Compartment, EditorState, StateEffect, StateField, type Extension, type Range } from '@codemirror/state';
import { Decoration, EditorView, drawSelection, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers, type DecorationSet } from '@codemirror/view';
import { babyCuda, cudaC, type LanguageName } from './languages.js';
import type { DiagnosticView, Mark } from './protocol.js';

const setMarks = StateEffect.define<readonly Mark[]>();

const markClass = (m: Mark): string => (m.thread === 1 ? 'cm-access-1' : m.thread === 2 ? 'cm-access-2' : 'cm-access-both');

/** Marks are dropped on any edit: they belong to the text that was verified. */
const marksField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, tr) {
    for (const e of tr.effects) {
      if (!e.is(setMarks)) continue;
      const ranges: Range<Decoration>[] = e.value
        .filter((m) => m.end <= tr.state.doc.length)
        .map((m) => Decoration.mark({ class: markClass(m), attributes: { title: m.label, 'data-label': m.label } }).range(m.start, Math.max(m.end, m.start + 1)));
      return Decoration.set(ranges, true);
    }
    return tr.docChanged ? Decoration.none : marks;
  },
  provide: (f) => EditorView.decorations.from(f),
});

export interface Editor {
  readonly view: EditorView;
  text(): string;
  setText(text: string): void;
  setLanguage(language: LanguageName): void;
  showMarks(marks: readonly Mark[]): void;
  showDiagnostics(diagnostics: readonly DiagnosticView[]): void;
}

export function createEditor(parent: HTMLElement, text: string, language: LanguageName, onRun: () => void, onChange: () => void): Editor {
  const languages = new Compartment();
  const languageOf = (l: LanguageName): Extension => (l === 'cu' ? cudaC : babyCuda);
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: text,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightActiveLine(),
        history(),
        drawSelection(),
        indentOnInput(),
        bracketMatching(),
        syntaxHighlighting(defaultHighlightStyle),
        languages.of(languageOf(language)),
        lintGutter(),
        marksField,
        keymap.of([{ key: 'Mod-Enter', run: () => (onRun(), true) }, indentWithTab, ...defaultKeymap, ...historyKeymap]),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) onChange();
        }),
      ],
    }),
  });
  return {
    view,
    text: () => view.state.doc.toString(),
    setText: (t) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: t } }),
    setLanguage: (l) => view.dispatch({ effects: languages.reconfigure(languageOf(l)) }),
    showMarks: (marks) => {
      view.dispatch({ effects: setMarks.of(marks) });
      const first = marks[0];
      if (first !== undefined) view.dispatch({ effects: EditorView.scrollIntoView(first.start, { y: 'center' }) });
    },
    showDiagnostics: (ds) => {
      const length = view.state.doc.length;
      const lint: LintDiagnostic[] = ds.map((d) => ({
        from: Math.min(d.start, length),
        to: Math.min(Math.max(d.end, d.start), length),
        severity: d.severity === 'note' ? 'info' : d.severity,
        message: `${d.severity}[${d.code}]: ${d.message}`,
      }));
      view.dispatch(setDiagnostics(view.state, lint));
    },
  };
}
