/**
 * An exception as Python would raise it (TypeError, ValueError, IndexError…), thrown by the semantics
 * helpers. Callers that present it (the template interpreter) turn it into their own error with the
 * same message, as Jinja2 would show Python's.
 */
export class PythonError extends Error {
  constructor(
    /** The Python exception class: `TypeError`, `ValueError`, … */
    readonly pythonType: string,
    message: string,
  ) {
    super(message);
    this.name = pythonType;
  }
}

export class PythonTypeError extends PythonError {
  constructor(message: string) {
    super('TypeError', message);
  }
}
