import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';

/** The empty list: "Start adding X" and, for those who may add, "Add your first X". */
export function EmptyState(props: {
  title: string;
  text?: string;
  actionLabel: string;
  onAdd?: () => void;
}) {
  return (
    <Paper variant="outlined" sx={{ p: 6, textAlign: 'center' }}>
      <Typography component="h2" variant="h6" gutterBottom>
        {props.title}
      </Typography>
      {props.text ? (
        <Typography color="text.secondary" sx={{ mb: 3, maxWidth: 560, mx: 'auto' }}>
          {props.text}
        </Typography>
      ) : null}
      {props.onAdd ? (
        <Button variant="contained" onClick={props.onAdd}>
          {props.actionLabel}
        </Button>
      ) : null}
    </Paper>
  );
}
