"""The players' battle pages: a battle's report with its replay, and its printable sheet."""
