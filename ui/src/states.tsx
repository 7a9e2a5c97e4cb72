import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ApiError } from './api';

export function Loading({ what }: { what: string }) {
  return (
    <p className="state" role="status">
      Loading {what}…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="state empty">{children}</p>;
}

export function ErrorState({ error }: { error: unknown }) {
  const message = error instanceof ApiError ? `${error.status} ${error.code}: ${error.message}` : String(error);
  return (
    <p className="state error" role="alert">
      Could not load: {message}
    </p>
  );
}

/** Loading, error and empty states of one query, then its data. */
export function QueryView<T>({
  query,
  what,
  empty,
  isEmpty = (data) => Array.isArray(data) && data.length === 0,
  children,
}: {
  query: UseQueryResult<T>;
  what: string;
  empty?: ReactNode;
  isEmpty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading what={what} />;
  if (query.isError) return <ErrorState error={query.error} />;
  if (empty !== undefined && isEmpty(query.data)) return <Empty>{empty}</Empty>;
  return <>{children(query.data)}</>;
}
