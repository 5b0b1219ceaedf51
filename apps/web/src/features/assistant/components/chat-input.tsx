import SendIcon from '@mui/icons-material/Send';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import { MAX_CHAT_MESSAGE_LENGTH } from '@tc/contract/assistant';
import { useId, useState, type FormEvent, type KeyboardEvent, type Ref } from 'react';
import { useTranslation } from 'react-i18next';

interface ChatInputProps {
  /** No provider: nothing can be typed (the box explains why in `describedBy`). */
  disabled: boolean;
  /** An answer is streaming or the status is not known yet: typing goes on, sending waits. */
  canSend: boolean;
  describedBy?: string;
  inputRef: Ref<HTMLTextAreaElement>;
  onSend: (text: string) => void;
}

/** The message field: Enter sends, Shift+Enter starts a new line; blank text is never sent. */
export function ChatInput({ disabled, canSend, describedBy, inputRef, onSend }: ChatInputProps) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const hintId = useId();
  const ready = !disabled && canSend && text.trim() !== '';

  const submit = () => {
    if (!ready) return;
    onSend(text);
    setText('');
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    // An IME composition uses Enter to confirm a word, not to send.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    submit();
  };

  return (
    <Box
      component="form"
      onSubmit={onSubmit}
      sx={{ display: 'flex', alignItems: 'flex-end', gap: 1, p: 1.5, pt: 0.5 }}
    >
      <TextField
        size="small"
        fullWidth
        multiline
        maxRows={4}
        disabled={disabled}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        placeholder={t('chat.placeholder')}
        inputRef={inputRef}
        slotProps={{
          htmlInput: {
            'aria-label': t('chat.message'),
            'aria-describedby': [describedBy, hintId].filter(Boolean).join(' '),
            maxLength: MAX_CHAT_MESSAGE_LENGTH,
          },
        }}
      />
      <span id={hintId} hidden>
        {t('chat.sendHint')}
      </span>
      <IconButton type="submit" color="primary" disabled={!ready} aria-label={t('chat.send')}>
        <SendIcon />
      </IconButton>
    </Box>
  );
}
