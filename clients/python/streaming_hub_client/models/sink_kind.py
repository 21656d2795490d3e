from enum import StrEnum


class SinkKind(StrEnum):
    EVENTBRIDGE = "eventbridge"
    PULL = "pull"
    RABBITMQ = "rabbitmq"
    SQS = "sqs"
    WEBHOOK = "webhook"

    def __str__(self) -> str:
        return str(self.value)
