/**
 * The pages' building blocks, without a framework: elements, labelled fields with their error line
 * under them, and forms whose outcome (done, cancelled, or what to fix) shows next to the form,
 * in the words of words.js.
 */
import { explain } from './words.js';

/**
 * Make an element.
 *
 * @param {string} tag - Its tag.
 * @param {Record<string, any>} [props] - Properties (`className`, `id`, `hidden`, `type`, …);
 * `dataset` entries and `title` are set as attributes.
 * @param {...any} children - Its children (text as text, never HTML).
 * @returns {any} The element.
 */
export function el(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'dataset') {
      Object.assign(element.dataset, value);
    } else {
      element[key] = value;
    }
  }
  element.append(
    ...children.filter((child) => child !== undefined && child !== false),
  );
  return element;
}

/**
 * The element with this id.
 *
 * @param {string} id - Its id.
 * @returns {any} The element.
 */
export const byId = (id) => document.getElementById(id);

/**
 * A labelled text input with its error line under it (`<id>-error`).
 *
 * @param {string} id - The input's id.
 * @param {string} label - What it asks, in words.
 * @param {Record<string, any>} [props] - Input properties (`type`, `placeholder`, `autocomplete`, …).
 * @returns {any} The label holding the input, and the error line.
 */
export function field(id, label, props = {}) {
  return el(
    'div',
    { className: 'field' },
    el('label', { htmlFor: id }, label),
    el('input', { id, name: id, ...props }),
    el('p', { id: `${id}-error`, className: 'field-error', hidden: true }),
  );
}

/**
 * A labelled choice: one radio button per option, its words shown whole (they wrap on a phone).
 *
 * @param {string} id - The group's id; each option's is `<id>:<value>`, its name `<id>`.
 * @param {string} label - What it asks.
 * @param {[string, string][]} options - Its choices: value and words.
 * @param {string} [value] - The one chosen at first (else the first).
 * @returns {any} The fieldset.
 */
export function choice(id, label, options, value = options[0][0]) {
  return el(
    'fieldset',
    { id, className: 'choices' },
    el('legend', {}, label),
    ...options.map(([optionValue, text]) =>
      el(
        'label',
        { className: 'choice' },
        el('input', {
          type: 'radio',
          name: id,
          id: `${id}:${optionValue}`,
          value: optionValue,
          checked: optionValue === value,
        }),
        el('span', {}, text),
      ),
    ),
  );
}

/**
 * The value chosen in a {@link choice}.
 *
 * @param {string} id - The group's id.
 * @returns {string | undefined} The chosen option's value.
 */
export const chosen = (id) =>
  document.querySelector(`input[name="${id}"]:checked`)?.value;

/**
 * Choose an option of a {@link choice}.
 *
 * @param {string} id - The group's id.
 * @param {string} value - The option's value.
 */
export function choose(id, value) {
  const input = byId(`${id}:${value}`);
  if (input) {
    input.checked = true;
  }
}

/** What runs before every action: hiding a private key on show (accounts.js sets it). */
const beforeEachAction = new Set();

/**
 * Run `hook` before every action of the page (any form or button).
 *
 * @param {() => void} hook - What to run.
 */
export function beforeAction(hook) {
  beforeEachAction.add(hook);
}

/** The status lines of the actions still running. */
const running = new Set();

/** A refusal of the page itself: an input left empty or not understood (shown under it). */
export class Refusal extends Error {
  /**
   * A refusal shown under a field.
   *
   * @param {string} fieldName - The field it is about (the name the form's `fields` map uses).
   * @param {string} words - What to do.
   */
  constructor(fieldName, words) {
    super(words);
    this.field = fieldName;
    this.text = words;
  }
}

/**
 * A status line: what an action did, or what went wrong (`role="status"`, read out by screen readers).
 *
 * @param {string} id - Its id.
 * @returns {any} The line.
 */
export const statusLine = (id) =>
  el('p', { id, className: 'status', role: 'status', hidden: true });

/**
 * A notice line: what the last action of a section did, cleared by the next action.
 *
 * @param {string} id - Its id.
 * @returns {{ line: any, say: (text: string) => void }} The line, and how to say something in it.
 */
export function notice(id) {
  const line = statusLine(id);
  beforeAction(() => show(line, ''));
  return { line, say: (text) => show(line, text, 'ok') };
}

/**
 * Show words in a status or error line.
 *
 * @param {any} line - The line.
 * @param {string} text - The words ('' hides the line).
 * @param {'ok' | 'error' | 'busy' | 'info'} [kind] - How it reads.
 */
export function show(line, text, kind = 'info') {
  line.textContent = text;
  line.hidden = text === '';
  line.dataset.kind = kind;
}

/**
 * Run an action the way every button of the pages does: hide what earlier actions showed (their
 * words, a private key on show), disable the button while it runs, and show its outcome next to it: its own words when it succeeds, or
 * the error's words (words.js) under the field it is about, else in the status line.
 *
 * @param {object} how - The action.
 * @param {any} how.button - The button that runs it (disabled meanwhile).
 * @param {any} how.status - Its status line.
 * @param {string} how.form - The form's name, for the error words (`chain`, `import`, …).
 * @param {Record<string, string>} [how.fields] - The form's inputs by the field names errors use.
 * @param {string} [how.busy] - What the status line says while it runs.
 * @param {() => Promise<string | { text: string, kind: string } | undefined>} how.run - The work;
 * resolves to what to say (and how it reads, `ok` unless it says).
 * @param {() => void} [how.done] - What to do after success (clear the form).
 * @returns {Promise<boolean>} Whether it succeeded.
 */
export async function act({
  button,
  status,
  form: formName,
  fields = {},
  busy,
  run,
  done,
}) {
  beforeEachAction.forEach((hook) => hook());
  // what earlier actions said no longer holds; an action still running keeps its line
  document.querySelectorAll('.field-error, .status').forEach((line) => {
    if (!running.has(line)) {
      show(line, '');
    }
  });
  show(status, busy ?? '', 'busy');
  button.disabled = true;
  running.add(status);
  try {
    const said = await run();
    const { text, kind } =
      typeof said === 'object' && said !== null
        ? said
        : { text: said ?? '', kind: 'ok' };
    show(status, text, kind);
    done?.();
    return true;
  } catch (error) {
    const { field: name, text } =
      error instanceof Refusal ? error : explain(error, formName);
    const under = name === undefined ? undefined : fields[name];
    if (under) {
      show(status, '');
      show(byId(`${under}-error`), text, 'error');
      byId(under).focus();
    } else {
      show(status, text, 'error');
    }
    // the technical message, for a developer's console only (errors never hold a key)
    console.warn(formName, error?.code, error?.message);
    return false;
  } finally {
    button.disabled = false;
    running.delete(status);
  }
}

/**
 * A form: its fields, a submit button and its status line; submitting runs `run` through {@link act}
 * and, when it succeeds, empties the text inputs.
 *
 * @param {object} how - The form.
 * @param {string} how.id - Its id (also the form name for error words).
 * @param {any[]} how.children - Its fields.
 * @param {string} how.submit - The button's words.
 * @param {Record<string, string>} [how.fields] - Inputs by the field names errors use.
 * @param {string} [how.busy] - What it says while running.
 * @param {() => Promise<string | undefined>} how.run - The work.
 * @returns {any} The form.
 */
export function form({ id, children, submit, fields, busy, run }) {
  const button = el('button', { id: `${id}-submit`, type: 'submit' }, submit);
  const status = statusLine(`${id}-status`);
  const element = el(
    'form',
    { id, className: 'card', noValidate: true },
    ...children,
    button,
    status,
  );
  element.addEventListener('submit', (event) => {
    event.preventDefault();
    act({
      button,
      status,
      form: id,
      fields,
      busy,
      run,
      done: () =>
        element.querySelectorAll('input:not([type=radio])').forEach((input) => {
          input.value = '';
        }),
    }).catch(() => undefined);
  });
  return element;
}

/**
 * The trimmed value of an input, or a refusal shown under it when it is empty and needed.
 *
 * @param {string} id - The input's id.
 * @param {[string, string]} [needed] - The field's name and what to say when it is empty.
 * @returns {string | undefined} The value, or undefined when empty (and not needed).
 */
export function inputValue(id, needed) {
  const value = byId(id).value.trim();
  if (value === '' && needed) {
    throw new Refusal(...needed);
  }
  return value === '' ? undefined : value;
}

/**
 * A section of the page: a heading, a line saying what it is for, and its content.
 *
 * @param {string} id - Its id.
 * @param {string} title - Its heading.
 * @param {string} intro - What a person does here.
 * @returns {any} The section (append the content to it).
 */
export function section(id, title, intro) {
  return el(
    'section',
    { id },
    el('h2', {}, title),
    el('p', { className: 'intro' }, intro),
  );
}
