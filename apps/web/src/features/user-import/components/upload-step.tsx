import UploadFileIcon from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import type { UserImportJob } from '@tc/contract/user-import';
import { useId, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { describeFailure } from '../../../lib/problem-text';
import { uploadFile } from '../api/user-import-api';

/**
 * The first step: choose a CSV file (with the button, which the keyboard reaches, or by dropping
 * it on the area). It is uploaded at once; a refusal says what is wrong with the file.
 */
export function UploadStep(props: { onUploaded: (job: UserImportJob) => void }) {
  const { t } = useTranslation(['userImport', 'problems']);
  const inputId = useId();
  const hintId = useId();
  const [dragging, setDragging] = useState(false);
  const upload = useMutation({ mutationFn: uploadFile, onSuccess: props.onUploaded });

  const take = (files: FileList | null) => {
    const file = files?.[0];
    if (file) upload.mutate(file);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    take(event.dataTransfer.files);
  };

  return (
    <Box
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      sx={{
        border: 2,
        borderStyle: 'dashed',
        borderColor: dragging ? 'primary.main' : 'divider',
        borderRadius: 2,
        p: 4,
        textAlign: 'center',
      }}
    >
      <Typography id={hintId} sx={{ mb: 2 }}>
        {t('uploadHint')}
      </Typography>
      <input
        id={inputId}
        type="file"
        accept=".csv,text/csv"
        aria-describedby={hintId}
        hidden
        disabled={upload.isPending}
        onChange={(event) => {
          take(event.target.files);
          event.target.value = '';
        }}
      />
      <Button
        component="label"
        htmlFor={inputId}
        variant="contained"
        startIcon={<UploadFileIcon />}
        disabled={upload.isPending}
        tabIndex={0}
        onKeyDown={(event) => {
          if (event.key === 'Enter' || event.key === ' ') {
            event.preventDefault();
            document.getElementById(inputId)?.click();
          }
        }}
      >
        {t('chooseFile')}
      </Button>
      {upload.isPending ? (
        <Box sx={{ mt: 2 }} role="status">
          <LinearProgress aria-label={t('uploading')} />
          <Typography variant="body2" sx={{ mt: 1 }}>
            {t('uploading')}
          </Typography>
        </Box>
      ) : null}
      {upload.isError ? (
        <Alert severity="error" sx={{ mt: 2, textAlign: 'left' }}>
          {describeFailure(t, upload.error)}
        </Alert>
      ) : null}
      <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
        {t('limits')}
      </Typography>
    </Box>
  );
}
