import { AppError, UpstreamError } from '../../errors.js';

/** OpenAI answers an unknown model with 404 `model_not_found` of type invalid_request_error; clients rely on that code. */
export function modelNotFound(model: string): AppError {
  return new AppError({
    code: 'model_not_found',
    message: `The model \`${model}\` does not exist or you do not have access to it.`,
  });
}

/** For the `x-should-retry` header that OpenAI clients obey: they retry 5xx by default, which would rerun a run that failed for good. */
export function isRetryable(error: AppError): boolean {
  return error instanceof UpstreamError && error.retryable;
}
