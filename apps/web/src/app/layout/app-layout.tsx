import MenuIcon from '@mui/icons-material/Menu';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import LinearProgress from '@mui/material/LinearProgress';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { ChatWidget } from '../../features/assistant/components/chat-widget';
import { Notifications } from '../../components/notifications';
import { useLiveEvents } from '../../lib/live-events';
import { Sidebar } from './sidebar';

/** Sidebar width: 250 px, 270 px from the `lg` breakpoint. */
const width = { xs: 250, lg: 270 };

/** Layout shell: sidebar, content outlet and the floating chat widget. */
export default function AppLayout() {
  const { t } = useTranslation();
  const wide = useMediaQuery(useTheme().breakpoints.up('md'));
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const [lastPath, setLastPath] = useState(location.pathname);
  useLiveEvents(true);
  if (lastPath !== location.pathname) {
    // Close the slide-in sidebar after navigating on a small screen.
    setLastPath(location.pathname);
    setOpen(false);
  }

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <AppBar
        position="fixed"
        color="default"
        elevation={1}
        sx={{ display: { xs: 'block', md: 'none' } }}
      >
        <Toolbar>
          <IconButton
            edge="start"
            aria-label={t('layout.openMenu')}
            aria-controls="sidebar"
            aria-expanded={open}
            onClick={() => setOpen(true)}
          >
            <MenuIcon />
          </IconButton>
        </Toolbar>
      </AppBar>
      <Box
        component="nav"
        aria-label={t('layout.sidebar')}
        sx={{ width: { md: width.xs, lg: width.lg }, flexShrink: { md: 0 } }}
      >
        {/* One sidebar: permanent from md, a temporary slide-in below. */}
        <Drawer
          id="sidebar"
          variant={wide ? 'permanent' : 'temporary'}
          open={wide || open}
          onClose={() => setOpen(false)}
          sx={{ '& .MuiDrawer-paper': { width, boxSizing: 'border-box' } }}
        >
          <Sidebar />
        </Drawer>
      </Box>
      {/* Bottom padding keeps the floating chat bubble off the last controls (pagination). */}
      <Box component="main" sx={{ flexGrow: 1, p: 3, pt: { xs: 10, md: 3 }, pb: 12, minWidth: 0 }}>
        {/* A screen's chunk and texts load inside the shell, which stays in place meanwhile. */}
        <Suspense fallback={<LinearProgress aria-label={t('layout.loading')} />}>
          <Outlet />
        </Suspense>
      </Box>
      <ChatWidget />
      <Notifications />
    </Box>
  );
}
