import { ValidationError } from '../errors.js';
import { DEFAULT_PROJECT_ID } from './autopilot.types.js';

const PROJECT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

/** The project of a request from its X-Project-ID header; `default` when absent. */
export function resolveProjectId(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return DEFAULT_PROJECT_ID;
  const id = value.trim();
  if (!PROJECT_ID_PATTERN.test(id))
    throw new ValidationError(
      'X-Project-ID must be 1-128 letters, digits, _, . or -, starting with a letter or digit',
      'invalid_project_id',
      { param: 'X-Project-ID' },
    );
  return id;
}
