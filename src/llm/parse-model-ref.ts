import { ValidationError } from '../errors.js';

export interface ModelRef {
  provider: string;
  modelId: string;
}

/** Splits `<provider>/<model id>` at the first slash: model ids may contain slashes (`together/meta-llama/Llama-3`). */
export function parseModelRef(model: string): ModelRef {
  const slash = model.indexOf('/');
  if (slash <= 0 || slash === model.length - 1) {
    throw new ValidationError(`model "${model}" must be written <provider>/<model id>`, 'invalid_model');
  }
  return { provider: model.slice(0, slash), modelId: model.slice(slash + 1) };
}
