import ChatIcon from '@mui/icons-material/Chat';
import CloseIcon from '@mui/icons-material/Close';
import SendIcon from '@mui/icons-material/Send';
import Box from '@mui/material/Box';
import Fab from '@mui/material/Fab';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

interface ChatMessage {
  role: 'user' | 'assistant';
  content: string;
}

/**
 * Floating assistant (spec §2): a bubble opens and closes the chat box. Messages stay in
 * memory. The assistant itself comes in a later issue; until then it says so.
 */
export function ChatWidget() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const boxId = useId();

  const onSend = (event: FormEvent) => {
    event.preventDefault();
    const content = text.trim();
    if (!content) return;
    setMessages((list) => [
      ...list,
      { role: 'user', content },
      { role: 'assistant', content: t('chat.notConfigured') },
    ]);
    setText('');
  };

  return (
    <Box
      sx={{ position: 'fixed', right: 24, bottom: 24, zIndex: (theme) => theme.zIndex.speedDial }}
    >
      {open ? (
        <Paper
          id={boxId}
          role="dialog"
          aria-label={t('chat.title')}
          elevation={8}
          sx={{
            width: { xs: 'calc(100vw - 48px)', sm: 340 },
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
            <IconButton size="small" aria-label={t('chat.close')} onClick={() => setOpen(false)}>
              <CloseIcon fontSize="small" />
            </IconButton>
          </Box>
          <Box role="log" aria-live="polite" sx={{ p: 1.5, height: 260, overflowY: 'auto' }}>
            {messages.map((message, index) => (
              <Box
                key={index}
                sx={{
                  display: 'flex',
                  justifyContent: message.role === 'user' ? 'flex-end' : 'flex-start',
                  mb: 1,
                }}
              >
                <Typography
                  variant="body2"
                  sx={{
                    px: 1.5,
                    py: 1,
                    borderRadius: 2,
                    maxWidth: '80%',
                    bgcolor: message.role === 'user' ? 'primary.main' : 'action.hover',
                    color: message.role === 'user' ? 'primary.contrastText' : 'text.primary',
                  }}
                >
                  {message.content}
                </Typography>
              </Box>
            ))}
          </Box>
          <Box component="form" onSubmit={onSend} sx={{ display: 'flex', gap: 1, p: 1.5 }}>
            <TextField
              size="small"
              fullWidth
              value={text}
              onChange={(event) => setText(event.target.value)}
              placeholder={t('chat.placeholder')}
              slotProps={{ htmlInput: { 'aria-label': t('chat.message') } }}
            />
            <IconButton type="submit" color="primary" aria-label={t('chat.send')}>
              <SendIcon />
            </IconButton>
          </Box>
        </Paper>
      ) : null}
      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <Fab
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
