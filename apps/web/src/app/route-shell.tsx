import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useNavigation, useRouteError } from 'react-router';
import { describeFailure } from '../lib/problem-text';
import { SessionEndRedirect } from './guards';

export function RouteLoading() {
  const { t } = useTranslation();
  return <LinearProgress aria-label={t('layout.loading')} />;
}

/**
 * The root route, around every screen. While the next screen's code, texts and first rows
 * load, the current one stays and a bar runs along the top of the window.
 */
export function RootRoute() {
  const { t } = useTranslation();
  const navigation = useNavigation();
  return (
    <>
      <SessionEndRedirect />
      {navigation.state === 'idle' ? null : (
        <LinearProgress
          aria-label={t('layout.loading')}
          sx={{
            position: 'fixed',
            top: 0,
            left: 0,
            right: 0,
            zIndex: (theme) => theme.zIndex.tooltip,
          }}
        />
      )}
      {/* A screen may still suspend on its own, e.g. for its texts in a language just chosen. */}
      <Suspense fallback={<RouteLoading />}>
        <Outlet />
      </Suspense>
    </>
  );
}

/** A screen whose code could not be loaded (a network failure, or a newer build deployed). */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  return (
    <Box component="main" sx={{ p: 4 }}>
      <Alert severity="error">{describeFailure(t, error)}</Alert>
    </Box>
  );
}
