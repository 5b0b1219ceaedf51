import ChatIcon from '@mui/icons-material/Chat';
import CloseIcon from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Fab from '@mui/material/Fab';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChatBox } from './chat-box';
import { useChat } from './use-chat';

/**
 * Floating assistant: a bubble opens and closes the chat
 * box. The conversation lives here, in memory, so it survives closing the box.
 */
export function ChatWidget() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const { entries, streaming, send } = useChat();
  const boxId = useId();
  const bubble = useRef<HTMLButtonElement>(null);

  // Closing from inside the box (close mark, Escape) hands focus back to the bubble.
  const close = () => {
    setOpen(false);
    bubble.current?.focus();
  };

  return (
    <Box
      sx={{ position: 'fixed', right: 24, bottom: 24, zIndex: (theme) => theme.zIndex.speedDial }}
    >
      {open ? (
        <ChatBox
          id={boxId}
          entries={entries}
          streaming={streaming}
          onSend={(text) => void send(text)}
          onClose={close}
        />
      ) : null}
      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Fab
          ref={bubble}
          color="primary"
          aria-label={open ? t('chat.close') : t('chat.open')}
          aria-expanded={open}
          aria-controls={open ? boxId : undefined}
          onClick={() => setOpen((o) => !o)}
        >
          {open ? <CloseIcon /> : <ChatIcon />}
        </Fab>
      </Box>
    </Box>
  );
}
