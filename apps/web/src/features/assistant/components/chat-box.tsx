import CloseIcon from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../lib/use-session';
import { useAssistantStatus } from '../api/get-assistant-status';
import { ChatInput } from './chat-input';
import { ChatMessages, TypingIndicator } from './chat-messages';
import type { ChatEntry } from './use-chat';

interface ChatBoxProps {
  id: string;
  entries: ChatEntry[];
  streaming: boolean;
  onSend: (text: string) => void;
  onClose: () => void;
}

/**
 * The open chat box: a title with a close mark, the conversation and
 * the message field. It asks the server whether an assistant is configured the first time it
 * opens; without one it says so plainly instead of offering a field that cannot work.
 */
export function ChatBox({ id, entries, streaming, onSend, onClose }: ChatBoxProps) {
  const { t } = useTranslation();
  const status = useAssistantStatus(true);
  // The assistant answers about a tenant's own data; the super administrator has none.
  const tenantOnly = useSession()?.superAdmin ?? false;
  const notConfigured = status.data?.configured === false || tenantOnly;
  const explanationId = useId();
  const input = useRef<HTMLTextAreaElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);

  // Focus goes to the field on opening; if the field turns out to be unusable, to the close mark.
  useEffect(() => {
    (notConfigured ? closeButton : input).current?.focus();
  }, [notConfigured]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    onClose();
  };

  return (
    <Paper
      id={id}
      role="dialog"
      aria-label={t('chat.title')}
      elevation={8}
      onKeyDown={onKeyDown}
      sx={{
        width: { xs: 'calc(100vw - 48px)', sm: 360 },
        mb: 2,
        display: 'flex',
        flexDirection: 'column',
      }}
    >
      <Box
        sx={{
          display: 'flex',
          alignItems: 'center',
          p: 1.5,
          borderBottom: 1,
          borderColor: 'divider',
        }}
      >
        <Typography component="h2" variant="subtitle1" sx={{ flex: 1, fontWeight: 600 }}>
          {t('chat.title')}
        </Typography>
        <IconButton ref={closeButton} size="small" aria-label={t('chat.close')} onClick={onClose}>
          <CloseIcon fontSize="small" />
        </IconButton>
      </Box>
      {notConfigured ? (
        <Box id={explanationId} sx={{ p: 2, height: 280 }}>
          <Typography variant="body2" sx={{ fontWeight: 600, mb: 1 }}>
            {t(tenantOnly ? 'chat.tenantOnly' : 'chat.notConfigured')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t(tenantOnly ? 'chat.tenantOnlyHint' : 'chat.notConfiguredHint')}
          </Typography>
        </Box>
      ) : (
        <ChatMessages entries={entries} streaming={streaming} />
      )}
      {status.isPending ? (
        <Typography variant="caption" color="text.secondary" sx={{ px: 2 }}>
          {t('chat.checking')}
        </Typography>
      ) : (
        <TypingIndicator active={streaming} />
      )}
      <ChatInput
        disabled={notConfigured}
        canSend={!streaming && !status.isPending}
        describedBy={notConfigured ? explanationId : undefined}
        inputRef={input}
        onSend={onSend}
      />
    </Paper>
  );
}
