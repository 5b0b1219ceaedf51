import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { keyframes } from '@mui/material/styles';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatEntry } from './use-chat';

/** Read by screen readers, not shown (who said what, and the typing indicator's words). */
const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

const blink = keyframes`
  0%, 80%, 100% { opacity: 0.25; }
  40% { opacity: 1; }
`;

/**
 * The conversation as a polite live log (WAI-ARIA `log`): new messages are announced. While
 * an answer streams the log is busy, so a screen reader reads the answer once, not per word.
 */
export function ChatMessages({ entries, streaming }: { entries: ChatEntry[]; streaming: boolean }) {
  const { t } = useTranslation();
  const log = useRef<HTMLDivElement>(null);

  // Follow the newest text as it streams in.
  useEffect(() => {
    const element = log.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [entries]);

  return (
    <Box
      ref={log}
      role="log"
      aria-live="polite"
      aria-busy={streaming}
      aria-label={t('chat.title')}
      tabIndex={0}
      sx={{ p: 1.5, height: 280, overflowY: 'auto' }}
    >
      {entries.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t('chat.intro')}
        </Typography>
      ) : null}
      {entries
        .filter((entry) => entry.content !== '')
        .map((entry) => (
          <Box
            key={entry.id}
            data-role={entry.role}
            sx={{
              display: 'flex',
              justifyContent: entry.role === 'user' ? 'flex-end' : 'flex-start',
              mb: 1,
            }}
          >
            <Typography
              variant="body2"
              sx={{
                px: 1.5,
                py: 1,
                borderRadius: 2,
                maxWidth: '85%',
                whiteSpace: 'pre-wrap',
                overflowWrap: 'anywhere',
                bgcolor: entry.role === 'user' ? 'primary.main' : 'action.hover',
                color: entry.role === 'user' ? 'primary.contrastText' : 'text.primary',
                ...(entry.notice ? { border: 1, borderColor: 'error.main' } : {}),
              }}
            >
              <Box component="span" sx={visuallyHidden}>
                {entry.role === 'user' ? t('chat.you') : t('chat.assistant')}:{' '}
              </Box>
              {entry.content}
            </Typography>
          </Box>
        ))}
    </Box>
  );
}

/**
 * Three pulsing dots while an answer is on its way (still dots when motion is reduced). The
 * status region stays mounted, so its text is announced when it appears.
 */
export function TypingIndicator({ active }: { active: boolean }) {
  const { t } = useTranslation();
  return (
    <Box role="status" sx={{ display: 'flex', gap: 0.5, alignItems: 'center', px: 2, height: 20 }}>
      {active ? (
        <>
          {[0, 1, 2].map((dot) => (
            <Box
              key={dot}
              aria-hidden
              sx={{
                width: 6,
                height: 6,
                borderRadius: '50%',
                bgcolor: 'text.secondary',
                animation: `${blink} 1.2s ${dot * 0.2}s infinite ease-in-out`,
                '@media (prefers-reduced-motion: reduce)': { animation: 'none' },
              }}
            />
          ))}
          <Box component="span" sx={visuallyHidden}>
            {t('chat.typing')}
          </Box>
        </>
      ) : null}
    </Box>
  );
}
